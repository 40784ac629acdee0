// Placeholder until its feature lands.
export default function RequirementsPage() {
  return <h1 className="text-2xl font-bold">Requirements</h1>;
}
