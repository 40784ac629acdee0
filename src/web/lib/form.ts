import { z } from "zod";

// Helpers for forms that validate with the shared zod schemas (react-hook-form + zodResolver), so a
// limit is read from the schema the server enforces instead of being copied into an attribute.

/** Peels optional, nullable, default and pipe (transform) layers down to the schema that was typed. */
function innermost(schema: z.ZodType): z.ZodType {
  let current: z.ZodType = schema;
  for (let depth = 0; depth < 10; depth += 1) {
    if (current instanceof z.ZodOptional || current instanceof z.ZodNullable || current instanceof z.ZodDefault) {
      current = current.unwrap() as z.ZodType;
    } else if (current instanceof z.ZodPipe) {
      current = current.in as z.ZodType;
    } else {
      break;
    }
  }
  return current;
}

/** The `.max()` of a string schema, for an input's maxLength; undefined when it has none. */
export function maxLengthOf(schema: z.ZodType): number | undefined {
  const inner = innermost(schema);
  return inner instanceof z.ZodString ? (inner.maxLength ?? undefined) : undefined;
}

/** The `.max()` of a number schema, for a number input's max; undefined when it has none. */
export function maxValueOf(schema: z.ZodType): number | undefined {
  const inner = innermost(schema);
  return inner instanceof z.ZodNumber ? (inner.maxValue ?? undefined) : undefined;
}

/** The `.min()` (or nonnegative) of a number schema, for a number input's min; undefined when it has none. */
export function minValueOf(schema: z.ZodType): number | undefined {
  const inner = innermost(schema);
  return inner instanceof z.ZodNumber ? (inner.minValue ?? undefined) : undefined;
}

/**
 * A text field holding an amount of money, validated by a shared number schema: empty says
 * `emptyMessage`, anything else is read as a number and judged by `schema` (its own messages).
 */
export function amountText<T extends z.ZodType<number, number>>(schema: T, emptyMessage: string) {
  return z.string().trim().min(1, { error: emptyMessage }).transform(Number).pipe(schema);
}

/** Like amountText, but an empty field is null (an optional amount). */
export function optionalAmountText<T extends z.ZodType<number, number>>(schema: T) {
  return z
    .string()
    .trim()
    .transform((value) => (value === "" ? null : Number(value)))
    .pipe(schema.nullable());
}
