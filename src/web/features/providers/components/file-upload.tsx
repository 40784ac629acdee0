import { FileText, Upload } from "lucide-react";
import { useEffect, useId, useRef, useState } from "react";
import {
  UPLOAD_FAILED_MESSAGE,
  UPLOAD_RULES,
  uploadMegabytes,
  uploadTooLargeMessage,
  uploadTypeList,
  type UploadKind,
} from "@shared/upload-rules";
import { Button } from "@/components/ui/button";
import { Label } from "@/components/ui/label";
import { toast } from "@/components/ui/use-toast";
import { errorMessage, goToLogin } from "@/lib/api";
import { putFile } from "../api/put-file";
import { requestUploadUrl, UploadUrlError } from "../api/request-upload-url";
import { setIdDocument } from "../api/set-id-document";
import { setProfilePhoto } from "../api/set-profile-photo";

// Task and dispute photos are attached by their own features, not through this uploader.
type ProviderUploadKind = Exclude<UploadKind, "task_photo" | "dispute_photo">;

const ATTACH: Record<ProviderUploadKind, (uploadURL: string) => Promise<string>> = {
  id_document: setIdDocument,
  profile_photo: setProfilePhoto,
};

/** "JPEG, PNG, WebP or PDF, up to 10 MB", from the rules the server enforces (src/shared/upload-rules.ts). */
export function uploadHint(kind: UploadKind): string {
  return `${uploadTypeList(kind)}, up to ${uploadMegabytes(UPLOAD_RULES[kind].maxBytes)}`;
}

/** Thumbnail preview width of the uploader (docs/product.md#web-app). */
const PREVIEW_WIDTH = 280;
const SIGN_IN_REDIRECT_MS = 2000;

export type FileUploadProps = {
  kind: ProviderUploadKind;
  label: string;
  required?: boolean;
  /** Called with the objectPath once the file is stored and attached. */
  onUploaded: (objectPath: string) => void;
  /** The form's validation message for this file, shown under it. */
  error?: string;
};

/** One file, sent straight to storage with a progress bar, then attached (docs/product.md#verification). */
export function FileUpload({ kind, label, required = false, onUploaded, error }: FileUploadProps) {
  const inputId = useId();
  const hintId = `${inputId}-hint`;
  const errorId = `${inputId}-error`;
  const inputRef = useRef<HTMLInputElement>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [file, setFile] = useState<{ name: string; previewUrl: string | null } | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => () => {
    if (file?.previewUrl) URL.revokeObjectURL(file.previewUrl);
  }, [file]);

  async function upload(chosen: File) {
    if (chosen.size > UPLOAD_RULES[kind].maxBytes) {
      toast({ title: "File Too Large", description: uploadTooLargeMessage(kind), variant: "destructive" });
      return;
    }
    setBusy(true);
    setProgress(0);
    try {
      let uploadURL: string;
      try {
        uploadURL = await requestUploadUrl(kind);
      } catch (error) {
        if (error instanceof UploadUrlError && error.status === 401) {
          toast({ title: "Sign In Required", description: "Please sign in to upload files. Redirecting...", variant: "destructive" });
          window.setTimeout(() => goToLogin(), SIGN_IN_REDIRECT_MS);
          return;
        }
        throw error;
      }
      await putFile(uploadURL, chosen, setProgress);
      const objectPath = await ATTACH[kind](uploadURL);
      setFile({ name: chosen.name, previewUrl: chosen.type.startsWith("image/") ? URL.createObjectURL(chosen) : null });
      onUploaded(objectPath);
      toast({ title: `${label} Uploaded`, description: chosen.name });
    } catch (error) {
      setProgress(null);
      toast({ title: "Upload Failed", description: errorMessage(error, UPLOAD_FAILED_MESSAGE), variant: "destructive" });
    } finally {
      setBusy(false);
      if (inputRef.current) inputRef.current.value = "";
    }
  }

  return (
    <div className="grid gap-2">
      <Label htmlFor={inputId}>
        {label}
        {required ? (
          <span aria-hidden="true" className="ml-0.5 text-destructive">
            *
          </span>
        ) : null}
      </Label>
      <input
        ref={inputRef}
        id={inputId}
        type="file"
        accept={UPLOAD_RULES[kind].types.join(",")}
        className="sr-only"
        aria-required={required || undefined}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${hintId} ${errorId}` : hintId}
        onChange={(event) => {
          const chosen = event.target.files?.[0];
          if (chosen) void upload(chosen);
        }}
      />
      <div className="flex flex-wrap items-center gap-3">
        <Button type="button" variant="outline" disabled={busy} onClick={() => inputRef.current?.click()}>
          <Upload aria-hidden="true" />
          {file ? `Replace ${label}` : `Upload ${label}`}
        </Button>
        <span id={hintId} className="text-sm text-muted-foreground">
          {uploadHint(kind)}
        </span>
      </div>
      {progress !== null ? (
        <div
          role="progressbar"
          aria-label={`${label} upload progress`}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={progress}
          className="h-2 w-full max-w-[280px] overflow-hidden rounded-full bg-secondary"
        >
          <div className="h-full bg-primary transition-all" style={{ width: `${progress}%` }} />
        </div>
      ) : null}
      {file ? (
        file.previewUrl ? (
          <img src={file.previewUrl} alt={`${label} preview`} width={PREVIEW_WIDTH} className="max-w-[280px] rounded-md border object-cover" />
        ) : (
          <p className="flex items-center gap-2 text-sm">
            <FileText className="size-5 text-primary" aria-hidden="true" />
            {file.name}
          </p>
        )
      ) : null}
      {error ? (
        <p id={errorId} className="text-sm font-medium text-destructive">
          {error}
        </p>
      ) : null}
    </div>
  );
}
