// Placeholder until its feature lands.
export default function FaqPage() {
  return <h1 className="text-2xl font-bold">Faq</h1>;
}
