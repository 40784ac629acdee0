import type { Message } from "@shared/chat";

/** Adds a message once: the POST answer and the socket echo of the same message are one. */
export function mergeMessage(list: readonly Message[], message: Message): Message[] {
  if (list.some((m) => m.id === message.id)) return [...list];
  const next = [...list, message];
  // Two instances may deliver in a different order than they stored: keep the stored order.
  next.sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
  return next;
}

/** Exponential backoff with jitter: 1 s, 2 s, 4 s … capped at 30 s. */
export function reconnectDelay(attempt: number, random: () => number = Math.random): number {
  const base = Math.min(30_000, 1000 * 2 ** Math.max(0, attempt));
  return Math.round(base * (0.75 + random() * 0.5));
}

/** The realtime endpoint on the page's own host, secure when the page is (spec §7). */
export function socketUrl(location: Pick<Location, "protocol" | "host">): string {
  return `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws`;
}
