// Placeholder until its feature lands.
export default function ProviderBenefitsPage() {
  return <h1 className="text-2xl font-bold">ProviderBenefits</h1>;
}
