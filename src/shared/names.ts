// Display helpers for people's names. Kept free of zod so the header can use them without
// putting the contract library on every visitor's first load (the landing JS budget).

/** Avatar fallback letters: first letters of first and last name, "U" when both are blank. */
export function initials(person: { firstName: string; lastName: string } | null | undefined): string {
  const first = person?.firstName.trim().charAt(0) ?? "";
  const last = person?.lastName.trim().charAt(0) ?? "";
  return `${first}${last}`.toUpperCase() || "U";
}
