import { AdminShell } from "@/features/admin/components/admin-shell";
import { AdminInbox } from "@/features/site/components/admin-inbox";

/** /admin/inbox: what visitors sent through the contact and appointment forms. Admins only. */
export default function AdminInboxPage() {
  return (
    <AdminShell title="Inbox" description="Contact messages and office appointment requests, newest first." current="/admin/inbox">
      <AdminInbox />
    </AdminShell>
  );
}
