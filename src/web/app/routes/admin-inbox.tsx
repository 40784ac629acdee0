import { AdminInbox } from "@/features/site/components/admin-inbox";
import { useDocumentTitle } from "@/features/site/hooks/use-document-title";

/** /admin/inbox: what visitors sent through the contact and appointment forms. Admins only. */
export default function AdminInboxPage() {
  useDocumentTitle("Inbox");
  return (
    <div className="mx-auto max-w-7xl px-4 py-10 sm:px-6">
      <h1 className="text-3xl font-bold tracking-tight">Inbox</h1>
      <p className="mt-2 mb-8 text-muted-foreground">Contact messages and office appointment requests, newest first.</p>
      <AdminInbox />
    </div>
  );
}
