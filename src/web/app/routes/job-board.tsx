// Placeholder until its feature lands.
export default function JobBoardPage() {
  return <h1 className="text-2xl font-bold">JobBoard</h1>;
}
