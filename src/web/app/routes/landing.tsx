// Placeholder until its feature lands.
export default function LandingPage() {
  return <h1 className="text-2xl font-bold">Landing</h1>;
}
