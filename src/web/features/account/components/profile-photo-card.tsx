import type { ReactNode } from "react";
import { initials } from "@shared/names";
import { Alert, AlertDescription } from "@/components/ui/alert";
import { Avatar, AvatarFallback, AvatarImage } from "@/components/ui/avatar";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { toast } from "@/components/ui/use-toast";
import { errorMessage } from "@/lib/api";
import { useAccount } from "../api/get-account";
import { usePhoto } from "../api/set-photo";

/**
 * The one photo of a person (docs/decisions/021-account-settings-deletion-and-export.md). The file
 * is sent by the upload control the page hands in (the providers' uploader, composed in src/web/app);
 * an approved provider's new photo waits for an admin and the current one stays.
 */
export function ProfilePhotoCard({ uploader }: { uploader: (onUploaded: (objectPath: string) => void) => ReactNode }) {
  const account = useAccount();
  const { set, remove } = usePhoto();
  const data = account.data;

  const onUploaded = (objectPath: string) =>
    set.mutate(objectPath, {
      onSuccess: (photo) =>
        toast({
          title: photo.pendingProfileImageUrl ? "Photo sent for approval" : "Photo saved",
          description: photo.pendingProfileImageUrl
            ? "An admin checks new photos of approved providers. Your current photo stays until then."
            : "Your new photo is shown across Errandly.",
        }),
      onError: (error) => toast({ title: "Could not save your photo", description: errorMessage(error, "Please upload it again."), variant: "destructive" }),
    });

  return (
    <Card>
      <CardHeader>
        <CardTitle asChild className="text-xl">
          <h2>Profile photo</h2>
        </CardTitle>
        <CardDescription>A clear photo of your face helps people trust you.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <div className="flex flex-wrap items-center gap-4">
          <Avatar className="size-20">
            {data?.profileImageUrl ? <AvatarImage src={data.profileImageUrl} alt="Your current profile photo" /> : null}
            <AvatarFallback className="text-xl">{data ? initials(data) : ""}</AvatarFallback>
          </Avatar>
          {data?.profileImageUrl ? (
            <Button
              type="button"
              variant="outline"
              disabled={remove.isPending}
              onClick={() =>
                remove.mutate(undefined, {
                  onSuccess: () => toast({ title: "Photo removed", description: "Your initials are shown instead." }),
                  onError: (error) => toast({ title: "Could not remove your photo", description: errorMessage(error, "Please try again."), variant: "destructive" }),
                })
              }
            >
              Remove photo
            </Button>
          ) : null}
        </div>
        {data?.pendingProfileImageUrl ? (
          <Alert>
            <AlertDescription className="flex flex-wrap items-center gap-3">
              <img src={data.pendingProfileImageUrl} alt="Your new photo, waiting for approval" width={48} height={48} className="size-12 rounded-full object-cover" />
              Your new photo is waiting for an admin&apos;s approval. Your current photo stays until then.
            </AlertDescription>
          </Alert>
        ) : null}
        {uploader(onUploaded)}
      </CardContent>
    </Card>
  );
}
