// How the sandbox card form shows what is typed (docs/product.md#validation): the number in groups
// of four, the expiry as MM/YY, whatever the person types or pastes.

/** "4242424242424242" → "4242 4242 4242 4242" as the person types. */
export function groupDigits(value: string): string {
  return value
    .replace(/\D/g, "")
    .slice(0, 19)
    .replace(/(\d{4})(?=\d)/g, "$1 ");
}

/**
 * "1230" → "12/30"; "12/2030" (pasted with a four-digit year) → "12/30"; a lone "5/" → "05/".
 * The slash appears once the month is complete, and deleting it by Backspace is not undone.
 */
export function formatExpiry(value: string): string {
  const slash = value.indexOf("/");
  if (slash > 0 && slash <= 2) {
    const month = value.slice(0, slash).replace(/\D/g, "").padStart(2, "0");
    let year = value.slice(slash + 1).replace(/\D/g, "");
    if (year.length === 4) year = year.slice(2);
    return `${month}/${year.slice(0, 2)}`;
  }
  let digits = value.replace(/\D/g, "");
  if (digits.length === 6) digits = digits.slice(0, 2) + digits.slice(4);
  digits = digits.slice(0, 4);
  return digits.length > 2 ? `${digits.slice(0, 2)}/${digits.slice(2)}` : digits;
}
