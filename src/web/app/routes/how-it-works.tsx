// Placeholder until its feature lands.
export default function HowItWorksPage() {
  return <h1 className="text-2xl font-bold">HowItWorks</h1>;
}
