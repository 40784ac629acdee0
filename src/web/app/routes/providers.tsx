import { useState } from "react";
import { useLocation, useSearchParams } from "wouter";
import { CATEGORIES } from "@shared/constants";
import { RADIUS_MILES, parseNearFilter } from "@shared/task-filters";
import { Button } from "@/components/ui/button";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { LoadingRegion } from "@/components/ui/skeleton";
import { useProviders, type ProvidersParams } from "@/features/providers/api/get-providers";
import { directoryQuery, MIN_RATINGS, readDirectoryFilters } from "@/features/providers/components/directory-filters";
import { ProviderCard, ProviderCardSkeleton } from "@/features/providers/components/provider-card";
import { useUser } from "@/lib/current-user";

const RADIUS_DEFAULT = 25;

/**
 * The public provider directory (/providers; docs/product.md#verification, "Directory filters"):
 * place, service type, lowest rating and sort, all in the URL, so Back, reload and links keep them.
 */
export default function ProvidersPage() {
  const { user } = useUser();
  const [params] = useSearchParams();
  const [, navigate] = useLocation();
  const filters = readDirectoryFilters(params);
  const { data: providers, isLoading, isError } = useProviders(filters);
  const [nearText, setNearText] = useState(filters.near ?? "");
  const [nearError, setNearError] = useState<string | null>(null);
  // Back, Forward or Clear filters change the URL's place: the box shows it again (React's "adjust state on a prop change").
  const [shownNear, setShownNear] = useState(filters.near);
  if (shownNear !== filters.near) {
    setShownNear(filters.near);
    setNearText(filters.near ?? "");
    setNearError(null);
  }
  const apply = (next: ProvidersParams) => {
    const query = directoryQuery(next);
    navigate(query ? `/providers?${query}` : "/providers");
  };
  const filtered = directoryQuery(filters) !== "";
  return (
    <div className="mx-auto max-w-6xl px-4 py-12 sm:px-6">
      <header className="mb-10 text-center">
        <h1 className="text-4xl font-bold tracking-tight">Browse Available Providers</h1>
        <p className="mt-3 text-lg text-muted-foreground">Connect with verified service providers in your area</p>
      </header>
      <form
        aria-label="Filter providers"
        className="mb-8 grid gap-4 sm:grid-cols-2 lg:grid-cols-[minmax(0,1.4fr)_repeat(4,minmax(0,1fr))] lg:items-start"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          const text = nearText.trim();
          // The same rule as the API's `near` (src/shared/task-filters.ts).
          const place = text ? parseNearFilter(text) : null;
          if (typeof place === "string") {
            setNearError(place);
            return;
          }
          setNearError(null);
          apply({ ...filters, near: text || undefined, radiusMiles: text ? (filters.radiusMiles ?? RADIUS_DEFAULT) : undefined });
        }}
      >
        <FormField label="Near (ZIP code)" error={nearError}>
          {(control) => (
            <div className="flex gap-2">
              <Input {...control} value={nearText} onChange={(e) => setNearText(e.target.value)} inputMode="numeric" placeholder="e.g. 10001" className="min-w-0 flex-1" />
              <Button type="submit" variant="outline">
                Search
              </Button>
            </div>
          )}
        </FormField>
        <FormField label="Within">
          {(control) => (
            <Select
              value={String(filters.radiusMiles ?? RADIUS_DEFAULT)}
              disabled={!filters.near}
              onValueChange={(v) => apply({ ...filters, radiusMiles: RADIUS_MILES.find((r) => String(r) === v) })}
            >
              <SelectTrigger {...control}>
                <SelectValue />
              </SelectTrigger>
              <SelectContent>
                {RADIUS_MILES.map((r) => (
                  <SelectItem key={r} value={String(r)}>
                    {r} miles
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          )}
        </FormField>
        <FormField label="Service">
          {(control) => (
            <Select value={filters.serviceType ?? "any"} onValueChange={(v) => apply({ ...filters, serviceType: CATEGORIES.find((c) => c.value === v)?.value })}>
              <SelectTrigger {...control}>
                <SelectValue />
              </SelectTrigger>
              <SelectContent>
                <SelectItem value="any">Any service</SelectItem>
                {CATEGORIES.map((c) => (
                  <SelectItem key={c.value} value={c.value}>
                    {c.label}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          )}
        </FormField>
        <FormField label="Rating">
          {(control) => (
            <Select value={String(filters.minRating ?? "any")} onValueChange={(v) => apply({ ...filters, minRating: MIN_RATINGS.find((r) => String(r) === v) })}>
              <SelectTrigger {...control}>
                <SelectValue />
              </SelectTrigger>
              <SelectContent>
                <SelectItem value="any">Any rating</SelectItem>
                {MIN_RATINGS.map((r) => (
                  <SelectItem key={r} value={String(r)}>
                    {r} stars and up
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          )}
        </FormField>
        <FormField label="Sort by">
          {(control) => (
            <Select
              value={filters.sort ?? "name"}
              onValueChange={(v) => apply({ ...filters, sort: v === "rating" || v === "completed" ? v : undefined })}
            >
              <SelectTrigger {...control}>
                <SelectValue />
              </SelectTrigger>
              <SelectContent>
                <SelectItem value="name">Name</SelectItem>
                <SelectItem value="rating">Rating</SelectItem>
                <SelectItem value="completed">Tasks completed</SelectItem>
              </SelectContent>
            </Select>
          )}
        </FormField>
      </form>
      {isLoading ? (
        <LoadingRegion label="Loading providers..." className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
          {[0, 1, 2, 3, 4, 5].map((n) => (
            <ProviderCardSkeleton key={n} />
          ))}
        </LoadingRegion>
      ) : isError ? (
        <p className="text-center text-muted-foreground">Could not load providers. Please try again later.</p>
      ) : !providers || providers.length === 0 ? (
        filtered ? (
          <div role="status" className="flex flex-col items-center gap-3 text-center text-muted-foreground">
            <p>No providers match these filters. Try a wider area, another service or any rating.</p>
            <Button
              variant="outline"
              onClick={() => apply({})}
            >
              Clear filters
            </Button>
          </div>
        ) : (
          <p className="text-center text-muted-foreground">No verified providers available at this time. Check back soon!</p>
        )
      ) : (
        <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
          {providers.map((provider) => (
            <li key={provider.id}>
              <ProviderCard provider={provider} canRequest={Boolean(user) && user?.id !== provider.userId} />
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
