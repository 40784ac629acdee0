// Which entry of this tab's history the app is on, counted from the first page it opened, so a
// Back button can go back when the user came from inside the app and go to a fallback page when
// they arrived from outside (a link in an e-mail). Kept in history.state, so a reload keeps it.

const KEY = "errandlyIndex";
let index = readIndex();

function readIndex(): number {
  const state: unknown = typeof window === "undefined" ? null : window.history.state;
  if (state && typeof state === "object" && KEY in state) {
    const value = (state as Record<string, unknown>)[KEY];
    if (typeof value === "number") return value;
  }
  return 0;
}

/** Called on every change of address: a new entry counts one up; Back and Forward read the stored one. */
export function noteNavigation(fromHistory: boolean, initial: boolean): void {
  if (initial || fromHistory) {
    index = readIndex();
    return;
  }
  index += 1;
  const state: unknown = window.history.state;
  const base = state && typeof state === "object" ? (state as Record<string, unknown>) : {};
  window.history.replaceState({ ...base, [KEY]: index }, "");
}

/** True when the previous entry of this tab is a page of the app. */
export function canGoBackInApp(): boolean {
  return index > 0;
}
