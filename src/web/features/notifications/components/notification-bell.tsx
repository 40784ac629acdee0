// Placeholder until the notifications feature lands.
export function NotificationBell() {
  return null;
}
