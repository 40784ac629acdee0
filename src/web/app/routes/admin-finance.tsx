// Placeholder until its feature lands.
export default function AdminFinancePage() {
  return <h1 className="text-2xl font-bold">AdminFinance</h1>;
}
