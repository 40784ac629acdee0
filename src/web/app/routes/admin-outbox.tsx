// Placeholder until its feature lands.
export default function AdminOutboxPage() {
  return <h1 className="text-2xl font-bold">AdminOutbox</h1>;
}
