// Placeholder until its feature lands.
export default function PrivacyPage() {
  return <h1 className="text-2xl font-bold">Privacy</h1>;
}
