// The outbox as an admin reads it (GET /api/admin/outbox) hides the links that carry a secret:
// a verification, password reset or e-mail change link signs its holder in or takes the account,
// so an admin (or whoever holds an admin's session) must not be able to follow it
// (docs/decisions/066-demo-data-on-loopback-only.md). The stored mail and its delivery are
// untouched: the recipient's link works. The rule looks at the link, not at which template wrote
// it, so a new mail with a token is hidden without being listed here.

export const HIDDEN_LINK = "[link hidden: a one-time link for the recipient only]";

// A link in plain text, up to the first space, angle bracket or double quote.
const LINK = /\bhttps?:\/\/[^\s<>"]+/gi;
// Punctuation that ends the sentence around a link rather than the link.
const TRAILING = /[.,;:!?)\]}']+$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A path segment that looks like a secret: 16 or more URL-safe characters with a digit, a capital
 * or an underscore in them (base64url or hex tokens), other than a UUID, which names a record that
 * the server checks access to (/task/{id}, /receipts/{id}); lowercase words joined by dashes are
 * page names (/become-provider).
 */
function secretSegment(segment: string): boolean {
  if (segment.length < 16 || UUID.test(segment)) return false;
  return /^[\w~.%-]+$/.test(segment) && /[0-9A-Z_%]/.test(segment);
}

function carriesSecret(link: string): boolean {
  let url: URL;
  try {
    url = new URL(link);
  } catch {
    return true;
  }
  // A query or fragment is where a link's token goes (?token=…, #code=…); credentials are secrets.
  if (url.search !== "" || url.hash !== "" || url.username !== "" || url.password !== "") return true;
  return url.pathname.split("/").some(secretSegment);
}

/** `text` with every link that carries a token replaced by HIDDEN_LINK; other links stay as they are. */
export function hideOneTimeLinks(text: string): string {
  return text.replace(LINK, (found) => {
    const link = found.replace(TRAILING, "");
    return (carriesSecret(link) ? HIDDEN_LINK : link) + found.slice(link.length);
  });
}
