import type { FieldValues, Path, UseFormSetError } from "react-hook-form";
import { ApiError } from "./api";

// A 400 from the server lands under the field it is about (docs/product.md#validation): the server
// names each refused field in `fieldErrors` ({path: message}), this puts each message on its
// react-hook-form field, and what no field of the form shows is said in plain words: the words of
// `fieldErrors`, never the API message, which may name the field first ("photoURL: …").

export interface ServerErrorsOutcome<T extends FieldValues> {
  /** The form fields that got a message, in the server's order. */
  placed: Path<T>[];
  /** Plain words for a toast: what no field shows, or the whole error; null when every message is on a field. */
  toast: string | null;
}

/** Messages said together, each a sentence: "is invalid" reads "Is invalid." */
export function plainWords(...messages: string[]): string {
  return messages
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .map((part) => (/[.!?]$/.test(part) ? part : `${part}.`))
    .join(" ");
}

export interface ApplyServerErrorsOptions<T extends FieldValues> {
  /** The form field a request path was typed in, or null when the form has none. Defaults to the path itself when `fields` lists its first part. */
  fieldOf?: (path: string) => Path<T> | null;
  /** The form's top-level fields, for the default `fieldOf`. */
  fields?: readonly string[];
  /** Said when the error carries no words of its own (a network failure). */
  fallback: string;
}

export function applyServerErrors<T extends FieldValues>(
  error: unknown,
  setError: UseFormSetError<T>,
  { fieldOf, fields = [], fallback }: ApplyServerErrorsOptions<T>,
): ServerErrorsOutcome<T> {
  if (!(error instanceof ApiError)) {
    return { placed: [], toast: error instanceof Error && error.message ? plainWords(error.message) : fallback };
  }
  const entries = Object.entries(error.fieldErrors);
  if (error.status !== 400 || entries.length === 0) {
    return { placed: [], toast: error.serverMessage ? plainWords(error.serverMessage) : fallback };
  }
  const locate = fieldOf ?? ((path: string) => (fields.includes(path.split(".")[0] ?? "") ? (path as Path<T>) : null));
  const placed: Path<T>[] = [];
  const unplaced: string[] = [];
  for (const [path, message] of entries) {
    const field = locate(path);
    if (field === null) {
      unplaced.push(message);
      continue;
    }
    // The first refused field takes the focus, so the person lands where to fix it.
    setError(field, { type: "server", message }, { shouldFocus: placed.length === 0 });
    placed.push(field);
  }
  return { placed, toast: unplaced.length > 0 ? plainWords(...unplaced) : null };
}
