// Placeholder until its feature lands.
export default function ProviderProfilePage() {
  return <h1 className="text-2xl font-bold">ProviderProfile</h1>;
}
