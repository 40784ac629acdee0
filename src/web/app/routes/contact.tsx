// Placeholder until its feature lands.
export default function ContactPage() {
  return <h1 className="text-2xl font-bold">Contact</h1>;
}
