// Placeholder until its feature lands.
export default function SandboxOnboardingPage() {
  return <h1 className="text-2xl font-bold">SandboxOnboarding</h1>;
}
