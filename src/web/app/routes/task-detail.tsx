// Placeholder until its feature lands.
export default function TaskDetailPage() {
  return <h1 className="text-2xl font-bold">TaskDetail</h1>;
}
