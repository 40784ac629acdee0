// Placeholder until its feature lands.
export default function AdminAuditPage() {
  return <h1 className="text-2xl font-bold">AdminAudit</h1>;
}
