/** A person's public profile page (docs/product.md, "People you can see"); every name of a person links here. */
export function userProfilePath(userId: string): string {
  return `/users/${encodeURIComponent(userId)}`;
}
