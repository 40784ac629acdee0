/** A person's public profile page (docs/product.md, "People you can see"); every name of a person links here. */
export function userProfilePath(userId: string): string {
  return `/users/${encodeURIComponent(userId)}`;
}

/**
 * The dashboard with the Post a Task wizard open for one provider first (docs/product.md, Requesting
 * a provider): "Request" on a profile or a directory card.
 */
export function requestProviderPath(userId: string): string {
  return `/dashboard?request=${encodeURIComponent(userId)}`;
}

/** The same wizard prefilled from a completed task, requested from its provider: "Book again". */
export function bookAgainPath(taskId: string): string {
  return `/dashboard?again=${encodeURIComponent(taskId)}`;
}
