import { useState } from "react";
import { Avatar, AvatarFallback, AvatarImage } from "@/components/ui/avatar";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { FormField } from "@/components/ui/form-field";
import { Skeleton } from "@/components/ui/skeleton";
import { Textarea } from "@/components/ui/textarea";
import { toast } from "@/components/ui/use-toast";
import type { PendingPhoto } from "@shared/account";
import { errorMessage } from "@/lib/api";
import { useDecidePhotoChange, usePhotoChanges } from "../api/photo-changes";

/** The admin's queue of approved providers' new photos: approve, or reject with a reason the provider is told. */
export function PhotoChangesQueue() {
  const changes = usePhotoChanges(true);
  const decide = useDecidePhotoChange();
  const [rejecting, setRejecting] = useState<PendingPhoto | null>(null);
  const [reason, setReason] = useState("");
  const [reasonError, setReasonError] = useState<string | undefined>();
  const failed = (error: unknown) => toast({ title: "Error", description: errorMessage(error, "Please try again."), variant: "destructive" });

  if (changes.isLoading) return <Skeleton className="h-32 w-full" />;
  const list = changes.data ?? [];
  if (list.length === 0) return <p className="py-12 text-center text-muted-foreground">No photo changes waiting</p>;

  return (
    <>
      <div className="grid gap-4 md:grid-cols-2">
        {list.map((change) => (
          <Card key={change.userId}>
            <CardHeader>
              <CardTitle asChild className="text-lg">
                <h3 className="break-words">{change.name}</h3>
              </CardTitle>
            </CardHeader>
            <CardContent className="grid gap-4">
              <div className="flex flex-wrap items-center gap-6">
                <figure className="grid justify-items-center gap-1 text-sm">
                  <Avatar className="size-16">
                    {change.currentPhotoUrl ? <AvatarImage src={change.currentPhotoUrl} alt={`Current photo of ${change.name}`} /> : null}
                    <AvatarFallback>—</AvatarFallback>
                  </Avatar>
                  <figcaption>Now</figcaption>
                </figure>
                <figure className="grid justify-items-center gap-1 text-sm">
                  <img src={change.pendingPhotoUrl} alt={`New photo of ${change.name}`} width={64} height={64} className="size-16 rounded-full object-cover" />
                  <figcaption>New</figcaption>
                </figure>
              </div>
              <div className="flex flex-wrap gap-2">
                <Button
                  type="button"
                  disabled={decide.isPending}
                  onClick={() =>
                    decide.mutate(
                      { userId: change.userId, action: "approve" },
                      { onSuccess: () => toast({ title: "Photo approved", description: `${change.name} has been told.` }), onError: failed },
                    )
                  }
                >
                  Approve photo
                </Button>
                <Button
                  type="button"
                  variant="outline"
                  disabled={decide.isPending}
                  onClick={() => {
                    setReason("");
                    setReasonError(undefined);
                    setRejecting(change);
                  }}
                >
                  Reject photo
                </Button>
              </div>
            </CardContent>
          </Card>
        ))}
      </div>
      <Dialog open={rejecting !== null} onOpenChange={(next) => (next ? null : setRejecting(null))}>
        <DialogContent>
          <DialogHeader>
            <DialogTitle>Reject new photo</DialogTitle>
            <DialogDescription>Tell {rejecting?.name} why. Their current photo stays.</DialogDescription>
          </DialogHeader>
          <form
            noValidate
            className="grid gap-4"
            onSubmit={(event) => {
              event.preventDefault();
              if (!rejecting) return;
              if (!reason.trim()) {
                setReasonError("Reason is required");
                return;
              }
              decide.mutate(
                { userId: rejecting.userId, action: "reject", reason: reason.trim() },
                {
                  onSuccess: () => {
                    toast({ title: "Photo rejected", description: `${rejecting.name} has been told why.` });
                    setRejecting(null);
                  },
                  onError: failed,
                },
              );
            }}
          >
            <FormField label="Reason" required error={reasonError}>
              <Textarea rows={3} maxLength={500} value={reason} onChange={(e) => setReason(e.target.value)} />
            </FormField>
            <DialogFooter>
              <Button type="button" variant="outline" onClick={() => setRejecting(null)}>
                Cancel
              </Button>
              <Button type="submit" variant="destructive" disabled={decide.isPending}>
                Reject photo
              </Button>
            </DialogFooter>
          </form>
        </DialogContent>
      </Dialog>
    </>
  );
}
