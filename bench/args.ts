/**
 * The `--name=value` options of a bench script; a bare `--flag` reads as "true". A value may
 * itself hold "=" (a database URL with query parameters), so only the first one splits.
 */
export function benchArgs(argv: readonly string[] = process.argv.slice(2)): Map<string, string> {
  return new Map(
    argv
      .filter((a) => a.startsWith("--"))
      .map((a) => {
        const [k, ...v] = a.slice(2).split("=");
        return [k ?? "", v.length > 0 ? v.join("=") : "true"] as const;
      }),
  );
}
