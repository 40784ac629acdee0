// Placeholder until its feature lands.
export default function PricingPage() {
  return <h1 className="text-2xl font-bold">Pricing</h1>;
}
