// Placeholder until its feature lands.
export default function TermsPage() {
  return <h1 className="text-2xl font-bold">Terms</h1>;
}
