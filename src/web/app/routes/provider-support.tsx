// Placeholder until its feature lands.
export default function ProviderSupportPage() {
  return <h1 className="text-2xl font-bold">ProviderSupport</h1>;
}
