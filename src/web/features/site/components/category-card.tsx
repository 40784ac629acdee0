import { Briefcase, Ellipsis, Package, PawPrint, ShoppingBag, ShoppingCart, Sparkles, Truck, type LucideIcon } from "lucide-react";
import { Link } from "wouter";
import type { CATEGORIES, Category } from "@shared/constants";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";

const ICONS: Record<Category, LucideIcon> = {
  errands: ShoppingCart,
  delivery: Package,
  business: Briefcase,
  cleaning: Sparkles,
  moving: Truck,
  shopping: ShoppingBag,
  pet: PawPrint,
  other: Ellipsis,
};

const BLURBS: Record<Category, string> = {
  errands: "Groceries, pharmacy pickups, post office runs and the everyday jobs that eat your week.",
  delivery: "Same-day local deliveries of packages, documents and anything that fits in a car.",
  business: "Office supply runs, bank deposits, event setup and a hand for small businesses.",
  cleaning: "Home and office cleaning, decluttering, closets and garage organization.",
  moving: "Help loading and unloading, furniture moves and hauling across town or across the state.",
  shopping: "Personal shopping, store pickups, returns and curbside orders collected for you.",
  pet: "Dog walking, pet sitting, feeding visits and rides to the vet or groomer.",
  other: "Something else on your list? Describe it and a local provider can take it on.",
};

interface CategoryCardProps {
  category: (typeof CATEGORIES)[number];
  /** h3 under a page section, h2 where the cards are the page's own sections. */
  heading: "h2" | "h3";
  linkText: string;
  /** When the visible text is the same on every card, the name says which category it opens. */
  linkName?: string;
}

/** A service category with a link to the job board filtered to it (docs/product.md#tasks). */
export function CategoryCard({ category, heading: Heading, linkText, linkName }: CategoryCardProps) {
  const Icon = ICONS[category.value];
  return (
    <Card className="flex h-full flex-col">
      <CardHeader>
        <Icon className="size-8 text-primary" aria-hidden="true" />
        <CardTitle asChild className="text-lg">
          <Heading>{category.label}</Heading>
        </CardTitle>
        <CardDescription>{BLURBS[category.value]}</CardDescription>
      </CardHeader>
      <CardContent className="mt-auto">
        <Button asChild variant="outline" className="w-full">
          <Link href={`/job-board?category=${category.value}`} aria-label={linkName}>
            {linkText}
          </Link>
        </Button>
      </CardContent>
    </Card>
  );
}
