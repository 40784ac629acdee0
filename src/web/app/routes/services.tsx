import { Link } from "wouter";
import { CATEGORIES } from "@shared/constants";
import { Button } from "@/components/ui/button";
import { CategoryCard } from "@/features/site/components/category-card";
import { CallToAction, StaticPage } from "@/features/site/components/static-page";

export default function ServicesPage() {
  return (
    <StaticPage title="Our Services" intro="Eight kinds of help, all from verified providers within a 200+ mile radius of our Maryland home.">
      <ul className="grid gap-6 sm:grid-cols-2">
        {CATEGORIES.map((category) => (
          <li key={category.value}>
            <CategoryCard category={category} heading="h2" linkText={`Browse ${category.label} tasks`} />
          </li>
        ))}
      </ul>
      <CallToAction title="Need something done?" text="Post a task from your dashboard, or offer your own services as a provider.">
        <Button asChild>
          <Link href="/dashboard">Go to Dashboard</Link>
        </Button>
        <Button asChild variant="outline">
          <Link href="/become-provider">Become a Provider</Link>
        </Button>
      </CallToAction>
    </StaticPage>
  );
}
