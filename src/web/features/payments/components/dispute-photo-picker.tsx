import { useEffect, useMemo, useState } from "react";
import { DISPUTE_PHOTO_LIMIT_MESSAGE, DISPUTE_PHOTO_MAX_COUNT } from "@shared/disputes";
import { UPLOAD_RULES, uploadMegabytes, uploadTypeList } from "@shared/upload-rules";
import { Button } from "@/components/ui/button";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { uploadAccept, uploadProblem } from "@/lib/upload-file";

// The photos a report or an answer carries (docs/product.md, Disputes): chosen here, uploaded when
// the message is sent. Its own chunk, loaded by the dispute panel only where a message is written
// (the task page's first-load budget, docs/benchmarks.md).

const HINT = `Up to ${DISPUTE_PHOTO_MAX_COUNT} photos, ${uploadTypeList("dispute_photo")}, up to ${uploadMegabytes(UPLOAD_RULES.dispute_photo.maxBytes)} each. Only the two of you and our admins see them.`;

function Preview({ file, index, onRemove }: { file: File; index: number; onRemove: () => void }) {
  const url = useMemo(() => URL.createObjectURL(file), [file]);
  useEffect(() => () => URL.revokeObjectURL(url), [url]);
  return (
    <li className="grid w-20 gap-1 text-xs">
      <img src={url} alt={`Chosen photo ${index + 1}: ${file.name}`} className="size-20 rounded-md border object-cover" />
      <Button type="button" variant="outline" size="sm" onClick={onRemove}>
        Remove<span className="sr-only"> photo {index + 1}</span>
      </Button>
    </li>
  );
}

/** A file input that collects up to DISPUTE_PHOTO_MAX_COUNT photos, each checked as the server will. */
export function DisputePhotoPicker({ files, onChange, error }: { files: readonly File[]; onChange: (files: File[]) => void; error?: string | undefined }) {
  const [problem, setProblem] = useState<string | null>(null);
  const [inputKey, setInputKey] = useState(0);
  const choose = (chosen: File[]) => {
    const refused = chosen.map((file) => uploadProblem("dispute_photo", file)).find((p) => p !== null) ?? null;
    const accepted = chosen.filter((file) => uploadProblem("dispute_photo", file) === null);
    const next = [...files, ...accepted];
    setProblem(refused ?? (next.length > DISPUTE_PHOTO_MAX_COUNT ? DISPUTE_PHOTO_LIMIT_MESSAGE : null));
    onChange(next.slice(0, DISPUTE_PHOTO_MAX_COUNT));
    setInputKey((k) => k + 1);
  };
  return (
    <div className="grid gap-2">
      <FormField label="Photos (optional)" description={HINT} error={problem ?? error}>
        <Input
          key={inputKey}
          type="file"
          multiple
          accept={uploadAccept("dispute_photo")}
          disabled={files.length >= DISPUTE_PHOTO_MAX_COUNT}
          onChange={(event) => choose([...(event.target.files ?? [])])}
        />
      </FormField>
      {files.length > 0 && (
        <ul className="flex flex-wrap gap-2" aria-label="Chosen photos">
          {files.map((file, i) => (
            <Preview
              key={`${file.name}-${file.lastModified}-${i}`}
              file={file}
              index={i}
              onRemove={() => {
                setProblem(null);
                onChange(files.filter((_, j) => j !== i));
              }}
            />
          ))}
        </ul>
      )}
    </div>
  );
}
