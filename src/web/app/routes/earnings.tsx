// Placeholder until its feature lands.
export default function EarningsPage() {
  return <h1 className="text-2xl font-bold">Earnings</h1>;
}
