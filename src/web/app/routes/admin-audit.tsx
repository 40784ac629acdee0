import { Skeleton } from "@/components/ui/skeleton";
import { useAuditLog } from "@/features/admin/api/get-audit-log";
import { AdminShell } from "@/features/admin/components/admin-shell";

function AuditTable() {
  const { data, isLoading } = useAuditLog(true);
  if (isLoading) return <Skeleton className="h-64 w-full" />;
  if (!data || data.length === 0) return <p className="py-12 text-center text-muted-foreground">No admin actions yet</p>;
  return (
    <div className="overflow-x-auto rounded-md border">
      <table className="w-full text-left text-sm">
        <caption className="sr-only">Admin actions, newest first</caption>
        <thead className="bg-muted">
          <tr>
            <th scope="col" className="p-3">When</th>
            <th scope="col" className="p-3">Who</th>
            <th scope="col" className="p-3">Action</th>
            <th scope="col" className="p-3">Target</th>
            <th scope="col" className="p-3">Reason</th>
          </tr>
        </thead>
        <tbody>
          {data.map((entry) => (
            <tr key={entry.id} className="border-t">
              <td className="p-3 whitespace-nowrap">{new Date(entry.createdAt).toLocaleString()}</td>
              <td className="p-3">{entry.actorEmail ?? "(deleted user)"}</td>
              <td className="p-3">{entry.action}</td>
              <td className="p-3 font-mono text-xs">
                {entry.targetType} {entry.targetId}
              </td>
              <td className="p-3">{entry.reason ?? ""}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** /admin/audit: who did what, when and why. */
export default function AdminAuditPage() {
  return (
    <AdminShell title="Audit Log" current="/admin/audit">
      <AuditTable />
    </AdminShell>
  );
}
