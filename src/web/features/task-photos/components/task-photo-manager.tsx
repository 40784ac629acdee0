import { zodResolver } from "@hookform/resolvers/zod";
import { useState } from "react";
import { addTaskPhotoBodySchema, TASK_PHOTO_ALT_MAX_LENGTH, TASK_PHOTO_MAX_COUNT, type TaskPhoto } from "@shared/task-photos";
import { Button } from "@/components/ui/button";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { errorMessage } from "@/lib/api";
import { useSchemaForm } from "@/lib/schema-form";
import { PHOTO_ACCEPT, photoFileProblem, useTaskPhotoMutations } from "../api/task-photos";

const altFormSchema = addTaskPhotoBodySchema.pick({ alt: true });
type AltForm = { alt?: string };

export interface TaskPhotoManagerProps {
  taskId: string;
  photos: TaskPhoto[];
  /** The task's photos after an addition or removal. */
  onChanged: (photos: TaskPhoto[]) => void;
}

/**
 * The poster's photo list with Remove buttons and the form that adds one, with its description
 * (docs/product.md#task-photos). The same calls serve the wizard's photo step and the task page.
 */
export function TaskPhotoManager({ taskId, photos, onChanged }: TaskPhotoManagerProps) {
  const { add, remove } = useTaskPhotoMutations(taskId, onChanged);
  const [file, setFile] = useState<File | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  // A new key clears the file input after each addition.
  const [inputKey, setInputKey] = useState(0);
  const form = useSchemaForm<AltForm>({ resolver: zodResolver(altFormSchema), defaultValues: { alt: "" }, mode: "onTouched" });
  const full = photos.length >= TASK_PHOTO_MAX_COUNT;

  const submit = form.handleSubmit(({ alt }) => {
    if (!file) {
      setFileError("Choose a photo first.");
      return;
    }
    add.mutate(
      { file, alt: alt ?? "" },
      {
        onSuccess: () => {
          setFile(null);
          setInputKey((k) => k + 1);
          form.reset({ alt: "" });
        },
        // A refusal of the description goes under it; one about the file under the file.
        onError: (error) => setFileError(form.showServerErrors(error, "The photo could not be added. Please try again.")),
      },
    );
  });

  return (
    <div className="grid gap-4" data-testid="task-photo-manager">
      <p className="text-sm text-muted-foreground" aria-live="polite">
        {photos.length} of {TASK_PHOTO_MAX_COUNT} photos
      </p>
      {photos.length > 0 && (
        <ul className="grid grid-cols-2 gap-3 sm:grid-cols-3">
          {photos.map((photo, i) => (
            <li key={photo.id} className="grid gap-1.5 text-sm">
              <div className="aspect-[4/3] w-full overflow-hidden rounded-md bg-muted">
                <img src={photo.small} alt={photo.alt} width={320} height={240} className="size-full object-cover" />
              </div>
              <p className="line-clamp-2 [overflow-wrap:anywhere] text-muted-foreground">{photo.alt}</p>
              <Button
                type="button"
                variant="outline"
                size="sm"
                disabled={remove.isPending}
                onClick={() => remove.mutate(photo.id, { onError: (error) => setFileError(errorMessage(error, "The photo could not be removed.")) })}
              >
                Remove<span className="sr-only"> photo {i + 1}</span>
              </Button>
            </li>
          ))}
        </ul>
      )}
      {full ? (
        <p className="text-sm">A task can have at most {TASK_PHOTO_MAX_COUNT} photos. Remove one to add another.</p>
      ) : (
        <form noValidate onSubmit={(event) => void submit(event)} className="grid gap-3">
          <FormField label="Photo" description="JPEG, PNG or WebP, up to 10 MB. Location data is removed." error={fileError ?? undefined}>
            <Input
              key={inputKey}
              type="file"
              accept={PHOTO_ACCEPT}
              onChange={(event) => {
                const chosen = event.target.files?.[0] ?? null;
                setFile(chosen);
                setFileError(chosen ? photoFileProblem(chosen) : null);
              }}
            />
          </FormField>
          <FormField
            label="Short description (optional)"
            description="What the photo shows, for people who cannot see it."
            error={form.formState.errors.alt?.message}
          >
            <Input maxLength={TASK_PHOTO_ALT_MAX_LENGTH} placeholder="e.g. The couch, by the front door" {...form.register("alt")} />
          </FormField>
          <div>
            <Button type="submit" disabled={add.isPending || file === null || (file !== null && photoFileProblem(file) !== null)}>
              {add.isPending ? "Adding photo..." : "Add photo"}
            </Button>
          </div>
        </form>
      )}
    </div>
  );
}
