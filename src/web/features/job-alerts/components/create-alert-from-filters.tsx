import { BellPlus } from "lucide-react";
import { Link } from "wouter";
import { CATEGORY_VALUES, type Category } from "@shared/constants";
import { Button } from "@/components/ui/button";
import { toast } from "@/components/ui/use-toast";
import { errorMessage } from "@/lib/api";
import { useAddJobAlert } from "../api/add-job-alert";

export interface CreateAlertFromFiltersProps {
  category?: Category | undefined;
  near?: string | undefined;
  radiusMiles?: number | undefined;
  minBudget?: number | undefined;
}

/**
 * The job board's "Create alert from these filters" (docs/product.md#job-alerts): the board's place,
 * radius, category and lowest budget become one more job alert. Shown once a place is chosen, since
 * an alert needs one; without a category filter the alert covers every category.
 */
export function CreateAlertFromFilters({ category, near, radiusMiles, minBudget }: CreateAlertFromFiltersProps) {
  const add = useAddJobAlert();
  if (!near) return null;
  const create = () =>
    add.mutate(
      { categories: category ? [category] : [...CATEGORY_VALUES], near, radiusMiles: radiusMiles ?? 10, minBudget: minBudget ?? null },
      {
        onSuccess: ({ added }) =>
          toast({
            title: added ? "Job alert created" : "You already have this alert",
            description: (
              <>
                We'll tell you when a matching task is posted.{" "}
                <Link href="/settings/alerts" className="underline">
                  See your job alerts
                </Link>
              </>
            ),
          }),
        onError: (error) => toast({ title: "Could not create the alert", description: errorMessage(error, "Please try again."), variant: "destructive" }),
      },
    );
  return (
    <div className="mt-3">
      <Button variant="outline" size="sm" onClick={create} disabled={add.isPending}>
        <BellPlus aria-hidden="true" /> Create alert from these filters
      </Button>
    </div>
  );
}
