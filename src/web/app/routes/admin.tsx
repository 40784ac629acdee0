import type { ProviderProfile } from "@shared/providers";
import { LoadingRegion, Skeleton } from "@/components/ui/skeleton";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { toast } from "@/components/ui/use-toast";
import { errorMessage } from "@/lib/api";
import { useDecideApplication } from "@/features/admin/api/decide-application";
import { useActiveProviders } from "@/features/admin/api/get-active-providers";
import { useApplications } from "@/features/admin/api/get-applications";
import { useRevokeApproval } from "@/features/admin/api/revoke-approval";
import { ActiveProviderCard } from "@/features/admin/components/active-provider-card";
import { AdminShell } from "@/features/admin/components/admin-shell";
import { ApplicationCard } from "@/features/admin/components/application-card";
import { PhotoChangesQueue } from "@/features/account/components/photo-changes-queue";

function Loading() {
  return (
    <LoadingRegion label="Loading..." className="grid gap-4 md:grid-cols-2">
      <Skeleton className="h-48 w-full" />
      <Skeleton className="h-48 w-full" />
    </LoadingRegion>
  );
}

function Empty({ text }: { text: string }) {
  return <p className="py-12 text-center text-muted-foreground">{text}</p>;
}

function AdminDashboard() {
  const applications = useApplications(true);
  const active = useActiveProviders(true);
  const decide = useDecideApplication();
  const revokeApproval = useRevokeApproval();

  const pending = applications.data?.filter((a) => a.verificationStatus === "pending") ?? [];
  const underReview = applications.data?.filter((a) => a.verificationStatus === "under_review") ?? [];
  const providers = active.data ?? [];

  const approve = (userId: string) =>
    decide.mutate(
      { userId, action: "approve" },
      {
        onSuccess: () => toast({ title: "Application Approved", description: "The provider has been verified and can now accept tasks." }),
        onError: (error) => toast({ title: "Error", description: errorMessage(error, "Failed to approve application. Please try again."), variant: "destructive" }),
      },
    );
  const review = (userId: string) =>
    decide.mutate(
      { userId, action: "review" },
      {
        onSuccess: () => toast({ title: "Status Updated", description: "Application marked as under review." }),
        // Like every failing action, this one gets a generic toast (docs/product.md#web-app): better than silence.
        onError: () => toast({ title: "Error", description: "Failed to update application status. Please try again.", variant: "destructive" }),
      },
    );
  const reject = (userId: string, reason: string, done: () => void) =>
    decide.mutate(
      { userId, action: "reject", reason },
      {
        onSuccess: () => {
          done();
          toast({ title: "Application Rejected", description: "The provider has been notified of the rejection." });
        },
        onError: () => toast({ title: "Error", description: "Failed to reject application. Please try again.", variant: "destructive" }),
      },
    );

  const revoke = (userId: string, reason: string, done: () => void) =>
    revokeApproval.mutate(
      { userId, reason },
      {
        onSuccess: () => {
          done();
          toast({ title: "Approval Revoked", description: "The provider can no longer claim tasks and has been told why." });
        },
        onError: (error) => toast({ title: "Error", description: errorMessage(error, "Failed to revoke the approval. Please try again."), variant: "destructive" }),
      },
    );

  const list = (items: ProviderProfile[], empty: string) =>
    applications.isLoading ? (
      <Loading />
    ) : items.length === 0 ? (
      <Empty text={empty} />
    ) : (
      <div className="grid gap-4 md:grid-cols-2">
        {items.map((application) => (
          <ApplicationCard
            key={application.id}
            application={application}
            busy={decide.isPending}
            onReview={() => review(application.userId)}
            onReject={(reason, done) => reject(application.userId, reason, done)}
            onApprove={() => approve(application.userId)}
          />
        ))}
      </div>
    );

  return (
    <AdminShell title="Admin Dashboard" description="Review provider applications and see who is working." current="/admin">
      <Tabs defaultValue="pending">
        <TabsList>
          <TabsTrigger value="pending">Pending ({pending.length})</TabsTrigger>
          <TabsTrigger value="under_review">Under Review ({underReview.length})</TabsTrigger>
          <TabsTrigger value="active">Active Providers ({providers.length})</TabsTrigger>
          <TabsTrigger value="photos">Photo Changes</TabsTrigger>
        </TabsList>
        <TabsContent value="photos" className="mt-6">
          <PhotoChangesQueue />
        </TabsContent>
        <TabsContent value="pending" className="mt-6">
          {list(pending, "No pending applications")}
        </TabsContent>
        <TabsContent value="under_review" className="mt-6">
          {list(underReview, "No applications under review")}
        </TabsContent>
        <TabsContent value="active" className="mt-6">
          {active.isLoading ? (
            <Loading />
          ) : providers.length === 0 ? (
            <Empty text="No active providers" />
          ) : (
            <div className="grid gap-4 md:grid-cols-2">
              {providers.map((provider) => (
                <ActiveProviderCard
                  key={provider.id}
                  provider={provider}
                  revoking={revokeApproval.isPending}
                  onRevoke={(reason, done) => revoke(provider.userId, reason, done)}
                />
              ))}
            </div>
          )}
        </TabsContent>
      </Tabs>
    </AdminShell>
  );
}

/** The admin dashboard (/admin; docs/product.md#verification). */
export default function AdminPage() {
  return <AdminDashboard />;
}
