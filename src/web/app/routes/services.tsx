// Placeholder until its feature lands.
export default function ServicesPage() {
  return <h1 className="text-2xl font-bold">Services</h1>;
}
