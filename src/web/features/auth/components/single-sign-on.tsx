import { Button } from "@/components/ui/button";
import { useAuthConfig } from "../api/get-auth-config";

/**
 * "Continue with single sign-on" when the server has an OpenID Connect provider; nothing otherwise.
 * A plain link, not fetch: the provider's sign-in page needs a full-page navigation.
 */
export function SingleSignOn({ returnTo }: { returnTo: string }) {
  const { data } = useAuthConfig();
  if (!data?.oidc) return null;
  return (
    <div className="mb-6 space-y-4">
      <Button asChild variant="outline" className="w-full">
        <a href={`/api/auth/oidc/start?returnTo=${encodeURIComponent(returnTo)}`}>Continue with single sign-on</a>
      </Button>
      <div className="flex items-center gap-3 text-sm text-muted-foreground">
        <span className="h-px flex-1 bg-border" />
        or use your Errandly account
        <span className="h-px flex-1 bg-border" />
      </div>
    </div>
  );
}
