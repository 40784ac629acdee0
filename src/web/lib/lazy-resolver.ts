import type { FieldValues, Resolver } from "react-hook-form";

/**
 * A react-hook-form resolver that loads itself (the shared zod schema, zod and @hookform/resolvers)
 * at the form's first validation: a page whose first paint is a form, such as sign-in, then carries
 * react-hook-form but not zod (issue 17, docs/decisions/041-forms-loaded-on-first-use.md). The
 * module system keeps the loaded chunk, so later validations wait for nothing; a form prefetches it
 * on its first focus, so a person who types never waits at all.
 */
export function lazyResolver<T extends FieldValues>(load: () => Promise<Resolver<T>>): Resolver<T> {
  return async (values, context, options) => (await load())(values, context, options);
}
