import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Skeleton } from "@/components/ui/skeleton";
import { AdminShell } from "@/features/admin/components/admin-shell";
import { useReports } from "@/features/moderation/api/reports";
import { ReportCard } from "@/features/moderation/components/report-card";

/** /admin/reports: the reports queue, open ones oldest first (docs/product.md, Moderation). */
export default function AdminReportsPage() {
  const [status, setStatus] = useState<"open" | "closed">("open");
  const { data, isLoading } = useReports(status);
  return (
    <AdminShell title="Reports" description="What people reported, with the reported thing in context." current="/admin/reports">
      <div className="mb-4 flex gap-2" role="group" aria-label="Which reports">
        {(["open", "closed"] as const).map((s) => (
          <Button key={s} size="sm" variant={s === status ? "default" : "outline"} aria-pressed={s === status} onClick={() => setStatus(s)}>
            {s === "open" ? "Open" : "Closed"}
          </Button>
        ))}
      </div>
      {isLoading ? (
        <Skeleton className="h-64 w-full" />
      ) : !data || data.length === 0 ? (
        <p className="py-12 text-center text-muted-foreground">{status === "open" ? "No open reports" : "No closed reports yet"}</p>
      ) : (
        <div className="grid gap-4">
          {data.map((report) => (
            <ReportCard key={report.id} report={report} />
          ))}
        </div>
      )}
    </AdminShell>
  );
}
