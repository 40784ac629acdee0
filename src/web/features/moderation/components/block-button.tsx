import { Ban } from "lucide-react";
import { Button } from "@/components/ui/button";
import { toast } from "@/components/ui/use-toast";
import { errorMessage } from "@/lib/api";
import { useBlocks, useSetBlocked } from "../api/blocks";

/** Block or unblock a person (docs/product.md, Moderation): no chat, no claims, hidden from each other. */
export function BlockButton({ userId, name }: { userId: string; name: string }) {
  const blocks = useBlocks();
  const setBlocked = useSetBlocked();
  const blocked = blocks.data?.some((b) => b.userId === userId) ?? false;
  return (
    <Button
      type="button"
      variant="ghost"
      size="sm"
      className="text-muted-foreground"
      disabled={blocks.isLoading || setBlocked.isPending}
      onClick={() =>
        setBlocked.mutate(
          { userId, blocked: !blocked },
          {
            onSuccess: () => toast({ title: blocked ? `${name} is unblocked` : `${name} is blocked`, description: blocked ? undefined : "You will not chat or work together. Unblock them here or in Settings." }),
            onError: (error) => toast({ variant: "destructive", title: "Not changed", description: errorMessage(error, "Please try again.") }),
          },
        )
      }
    >
      <Ban className="size-4" aria-hidden="true" />
      {blocked ? "Unblock" : "Block"}
    </Button>
  );
}
