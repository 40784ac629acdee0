import { useEffect } from "react";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Spinner } from "@/components/ui/spinner";
import { useUser } from "@/features/auth/api/use-user";
import { AdminInbox } from "@/features/site/components/admin-inbox";
import { useDocumentTitle } from "@/features/site/hooks/use-document-title";
import { goToLogin } from "@/lib/api";

/** /admin/inbox: what visitors sent through the contact and appointment forms. Admins only. */
export default function AdminInboxPage() {
  useDocumentTitle("Inbox");
  const { user, isLoading } = useUser();

  useEffect(() => {
    if (!isLoading && !user) goToLogin("/admin/inbox");
  }, [isLoading, user]);

  if (isLoading || !user) {
    return (
      <div className="flex min-h-[50vh] items-center justify-center" aria-busy="true">
        <h1 className="sr-only">Inbox</h1>
        <Spinner />
      </div>
    );
  }

  if (user.role !== "admin") {
    return (
      <div className="mx-auto max-w-xl px-4 py-16">
        <h1 className="mb-4 text-3xl font-bold">Access Denied</h1>
        <Alert variant="destructive">
          <AlertTitle>Admins only</AlertTitle>
          <AlertDescription>You don&apos;t have permission to view this page.</AlertDescription>
        </Alert>
      </div>
    );
  }

  return (
    <div className="mx-auto max-w-7xl px-4 py-10 sm:px-6">
      <h1 className="text-3xl font-bold tracking-tight">Inbox</h1>
      <p className="mt-2 mb-8 text-muted-foreground">Contact messages and office appointment requests, newest first.</p>
      <AdminInbox />
    </div>
  );
}
