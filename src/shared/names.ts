// Display helpers for people's names. Kept free of zod so the header can use them without
// putting the contract library on every visitor's first load (the landing JS budget).

/** Avatar fallback letters: first letters of first and last name, "U" when both are blank. */
export function initials(person: { firstName: string; lastName: string } | null | undefined): string {
  const first = person?.firstName.trim().charAt(0) ?? "";
  const last = person?.lastName.trim().charAt(0) ?? "";
  return `${first}${last}`.toUpperCase() || "U";
}

/** The name a deleted account keeps (docs/product.md, Account: "Deleted user"). */
export const DELETED_USER = { firstName: "Deleted", lastName: "user" } as const;

/**
 * How strangers see a person: first name and last initial ("Maria G."), never the full last name
 * (docs/product.md, "People you can see"). A deleted account reads "Deleted user", not "Deleted U.".
 */
export function displayName(person: { firstName: string; lastName: string }): string {
  if (person.firstName === DELETED_USER.firstName && person.lastName === DELETED_USER.lastName) {
    return `${DELETED_USER.firstName} ${DELETED_USER.lastName}`;
  }
  const first = person.firstName.trim();
  const initial = person.lastName.trim().charAt(0).toUpperCase();
  if (!first) return initial ? `${initial}.` : "Errandly member";
  return initial ? `${first} ${initial}.` : first;
}

/** Ends a sentence after a name that may end in its own full stop: "released to Maria G." has one. */
export function endSentence(text: string): string {
  return /[.!?]$/.test(text) ? text : `${text}.`;
}

/** Avatar letters of a display name ("Maria G." gives "MG"), for people we know only by it. */
export function displayInitials(name: string): string {
  const letters = name
    .split(/\s+/)
    .map((word) => word.replace(/[^\p{L}\p{N}]/gu, "").charAt(0))
    .filter(Boolean)
    .slice(0, 2)
    .join("");
  return letters.toUpperCase() || "U";
}
