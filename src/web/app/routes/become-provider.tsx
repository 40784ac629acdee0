// Placeholder until its feature lands.
export default function BecomeProviderPage() {
  return <h1 className="text-2xl font-bold">BecomeProvider</h1>;
}
