import { Badge } from "@/components/ui/badge";
import { Skeleton } from "@/components/ui/skeleton";
import { useOutbox } from "@/features/admin/api/get-outbox";
import { AdminShell } from "@/features/admin/components/admin-shell";

const STATUS_VARIANT: Record<string, "success" | "warning" | "info" | "secondary" | "destructive"> = {
  sent: "success",
  queued: "warning",
  sending: "info",
  stored: "secondary",
  failed: "destructive",
};

function OutboxList() {
  const { data, isLoading } = useOutbox(true);
  if (isLoading) return <Skeleton className="h-64 w-full" />;
  if (!data || data.length === 0) return <p className="py-12 text-center text-muted-foreground">No e-mails yet</p>;
  return (
    <ul className="grid gap-3">
      {data.map((mail) => (
        <li key={mail.id} className="rounded-md border p-4">
          <div className="flex flex-wrap items-center justify-between gap-2">
            <h2 className="font-semibold">{mail.subject}</h2>
            <Badge variant={STATUS_VARIANT[mail.status] ?? "secondary"}>{mail.status}</Badge>
          </div>
          <p className="text-sm text-muted-foreground">
            To {mail.to} · {mail.kind} · {new Date(mail.createdAt).toLocaleString()}
          </p>
          {mail.error ? (
            <p className="mt-1 text-sm text-destructive">
              Last error: {mail.error} ({mail.attempts} {mail.attempts === 1 ? "attempt" : "attempts"}
              {mail.nextAttemptAt ? `, next try ${new Date(mail.nextAttemptAt).toLocaleString()}` : ""})
            </p>
          ) : null}
          <details className="mt-2 text-sm">
            <summary className="cursor-pointer">Message</summary>
            <pre className="mt-2 font-sans whitespace-pre-wrap">{mail.text}</pre>
          </details>
        </li>
      ))}
    </ul>
  );
}

/**
 * /admin/outbox: every e-mail the product sent or stored (docs/decisions/011-email-outbox.md), its
 * one-time links hidden by the server (decision 066).
 */
export default function AdminOutboxPage() {
  return (
    <AdminShell
      title="E-mail Outbox"
      description="Links that sign someone in or change their account are hidden here: they work only for the person they were sent to."
      current="/admin/outbox"
    >
      <OutboxList />
    </AdminShell>
  );
}
