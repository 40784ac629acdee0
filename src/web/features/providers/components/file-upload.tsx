import { FileText, Upload } from "lucide-react";
import { useEffect, useId, useRef, useState } from "react";
import { UPLOAD_RULES, type UploadKind } from "@shared/providers";
import { Button } from "@/components/ui/button";
import { Label } from "@/components/ui/label";
import { toast } from "@/components/ui/use-toast";
import { errorMessage, goToLogin } from "@/lib/api";
import { attachUpload, putFile, requestUploadUrl, UploadUrlError } from "../api/upload-file";

const COPY: Record<UploadKind, { uploaded: string; accept: string; hint: string }> = {
  id_document: { uploaded: "ID Document Uploaded", accept: "image/jpeg,image/png,image/webp,application/pdf", hint: "JPEG, PNG, WebP or PDF, up to 10 MB" },
  profile_photo: { uploaded: "Profile Photo Uploaded", accept: "image/jpeg,image/png,image/webp", hint: "JPEG, PNG or WebP, up to 5 MB" },
};

/** Thumbnail preview width of the uploader (spec §9). */
const PREVIEW_WIDTH = 280;
const SIGN_IN_REDIRECT_MS = 2000;

export type FileUploadProps = {
  kind: UploadKind;
  label: string;
  required?: boolean;
  /** Called with the objectPath once the file is stored and attached. */
  onUploaded: (objectPath: string) => void;
};

/** One file, sent straight to storage with a progress bar, then attached (spec §7, §8). */
export function FileUpload({ kind, label, required = false, onUploaded }: FileUploadProps) {
  const inputId = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [file, setFile] = useState<{ name: string; previewUrl: string | null } | null>(null);
  const [busy, setBusy] = useState(false);
  const copy = COPY[kind];

  useEffect(() => () => {
    if (file?.previewUrl) URL.revokeObjectURL(file.previewUrl);
  }, [file]);

  async function upload(chosen: File) {
    if (chosen.size > UPLOAD_RULES[kind].maxBytes) {
      toast({ title: "File Too Large", description: `${label} must be at most ${UPLOAD_RULES[kind].maxBytes / 1_048_576} MB.`, variant: "destructive" });
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
      const objectPath = await attachUpload(kind, uploadURL);
      setFile({ name: chosen.name, previewUrl: chosen.type.startsWith("image/") ? URL.createObjectURL(chosen) : null });
      onUploaded(objectPath);
      toast({ title: copy.uploaded, description: chosen.name });
    } catch (error) {
      setProgress(null);
      toast({ title: "Upload Failed", description: errorMessage(error, "Failed to get upload URL"), variant: "destructive" });
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
        accept={copy.accept}
        className="sr-only"
        aria-required={required || undefined}
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
        <span className="text-sm text-muted-foreground">{copy.hint}</span>
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
    </div>
  );
}
