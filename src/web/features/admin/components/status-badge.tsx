import type { VerificationStatus } from "@shared/constants";
import { Badge } from "@/components/ui/badge";

const LABEL: Record<VerificationStatus, { text: string; variant: "warning" | "info" | "success" | "destructive" }> = {
  pending: { text: "Pending", variant: "warning" },
  under_review: { text: "Under Review", variant: "info" },
  approved: { text: "Approved", variant: "success" },
  rejected: { text: "Rejected", variant: "destructive" },
};

export function StatusBadge({ status }: { status: VerificationStatus }) {
  return <Badge variant={LABEL[status].variant}>{LABEL[status].text}</Badge>;
}
