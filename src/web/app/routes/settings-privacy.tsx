import { useQueryClient } from "@tanstack/react-query";
import { Link, useLocation } from "wouter";
import { DeleteAccountCard } from "@/features/account/components/delete-account-card";
import { ExportDataCard } from "@/features/account/components/export-data-card";
import { BlockedPeopleCard } from "@/features/moderation/components/blocked-people-card";

/** /settings/privacy: download one's data, delete one's account (see /privacy for what each covers). */
export default function SettingsPrivacyPage() {
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  return (
    <>
      <p className="text-sm text-muted-foreground">
        What we keep and why is in our{" "}
        <Link href="/privacy" className="text-primary underline">
          privacy policy
        </Link>
        .
      </p>
      <BlockedPeopleCard />
      <ExportDataCard />
      <DeleteAccountCard
        onDeleted={() => {
          // The server ended every session: forget everything cached about the person.
          queryClient.clear();
          navigate("/goodbye", { replace: true });
        }}
      />
    </>
  );
}
