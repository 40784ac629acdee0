// Where sign-in sends a person back to. Apart from the zod contracts of auth.ts: the sign-in page
// reads it before any form is used, and zod loads with the forms (issue 17,
// docs/decisions/041-forms-loaded-on-first-use.md).

/**
 * Only same-origin relative paths survive: "/dashboard?x=1" yes, "https://evil", "//evil",
 * "/\\evil" and anything without a leading slash go to "/".
 */
export function safeReturnTo(value: unknown): string {
  if (typeof value !== "string" || value.length === 0 || value.length > 2000) return "/";
  if (!value.startsWith("/") || value.startsWith("//") || value.startsWith("/\\")) return "/";
  // Control characters (CR, LF, TAB…) could split a Location header or be dropped by browsers.
  for (const ch of value) if (ch.charCodeAt(0) < 0x20) return "/";
  return value;
}
