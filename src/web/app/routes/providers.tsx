// Placeholder until its feature lands.
export default function ProvidersPage() {
  return <h1 className="text-2xl font-bold">Providers</h1>;
}
