// zod probes `new Function` for its fast object parser; our CSP has no 'unsafe-eval', so the probe
// only files a CSP violation (Chrome's Issues panel, Lighthouse best practices). Never probe.
//
// zod keeps its settings on `globalThis.__zod_globalConfig` (zod/v4/core/core.js) so that several
// copies share them. Setting that object here, instead of calling zod's `config()`, keeps zod out
// of the first load of pages that never parse anything (about 3 KB gzipped, issue 17); zod reads
// the flag when a chunk that uses it builds its object schemas, always after this module ran.
// zod-jitless.test.ts fails if zod stops reading it. Mutated, not replaced: should zod ever load
// first, it already holds a reference to the object. The zod version this mirrors and how to
// upgrade: docs/decisions/046-libraries-written-by-hand.md.

declare global {
  var __zod_globalConfig: { jitless?: boolean } | undefined;
}

globalThis.__zod_globalConfig ??= {};
globalThis.__zod_globalConfig.jitless = true;

export {};
