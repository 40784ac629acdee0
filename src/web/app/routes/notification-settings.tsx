// Placeholder until its feature lands.
export default function NotificationSettingsPage() {
  return <h1 className="text-2xl font-bold">NotificationSettings</h1>;
}
