// Placeholder until its feature lands.
export default function AdminInboxPage() {
  return <h1 className="text-2xl font-bold">AdminInbox</h1>;
}
