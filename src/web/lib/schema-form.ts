import { useForm, type DefaultValues, type FieldValues, type Path, type Resolver, type UseFormProps, type UseFormReturn } from "react-hook-form";
import { applyServerErrors } from "./server-errors";

// The one way of writing a form (docs/product.md#validation): react-hook-form with the shared zod
// schema the server enforces (`zodResolver(schema)`, or `lazyResolver` where zod must stay out of
// the first load, decision 041), and a failed request's `fieldErrors` put under their fields.

export interface SchemaFormOptions<TIn extends FieldValues, TOut> extends Omit<UseFormProps<TIn, unknown, TOut>, "resolver" | "defaultValues"> {
  resolver: Resolver<TIn, unknown, TOut>;
  defaultValues: DefaultValues<TIn>;
}

export interface SchemaForm<TIn extends FieldValues, TOut> extends UseFormReturn<TIn, unknown, TOut> {
  /**
   * Puts each of a failed request's `fieldErrors` under its field (the first takes the focus), and
   * returns what no field shows, in plain words for a toast, or null when every message is on a
   * field. `fieldOf` maps a request path to the form's field where their names differ.
   */
  showServerErrors: (error: unknown, fallback: string, fieldOf?: (path: string) => Path<TIn> | null) => string | null;
}

export function useSchemaForm<TIn extends FieldValues, TOut = TIn>({ resolver, defaultValues, ...options }: SchemaFormOptions<TIn, TOut>): SchemaForm<TIn, TOut> {
  const form = useForm<TIn, unknown, TOut>({ resolver, defaultValues, ...options });
  const fields = Object.keys(defaultValues);
  return {
    ...form,
    showServerErrors: (error, fallback, fieldOf) => applyServerErrors(error, form.setError, { fields, fieldOf, fallback }).toast,
  };
}
