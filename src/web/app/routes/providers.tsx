import { Skeleton } from "@/components/ui/skeleton";
import { useProviders } from "@/features/providers/api/get-providers";
import { ProviderCard } from "@/features/providers/components/provider-card";

/** The public provider directory (/providers; docs/product.md#verification). */
export default function ProvidersPage() {
  const { data: providers, isLoading, isError } = useProviders();
  return (
    <div className="mx-auto max-w-6xl px-4 py-12 sm:px-6">
      <header className="mb-10 text-center">
        <h1 className="text-4xl font-bold tracking-tight">Browse Available Providers</h1>
        <p className="mt-3 text-lg text-muted-foreground">Connect with verified service providers in your area</p>
      </header>
      {isLoading ? (
        <div className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3" aria-busy="true" aria-label="Loading providers">
          {[0, 1, 2, 3, 4, 5].map((n) => (
            <Skeleton key={n} className="h-72 w-full rounded-lg" />
          ))}
        </div>
      ) : isError ? (
        <p className="text-center text-muted-foreground">Could not load providers. Please try again later.</p>
      ) : !providers || providers.length === 0 ? (
        <p className="text-center text-muted-foreground">No verified providers available at this time. Check back soon!</p>
      ) : (
        <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
          {providers.map((provider) => (
            <li key={provider.id}>
              <ProviderCard provider={provider} />
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
