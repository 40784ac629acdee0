import { createHash, randomBytes } from "node:crypto";
import type { Answer, Browser } from "./http.js";
import { brief, type Check } from "./report.js";
import { canariesIn, type Cast, type World } from "./world.js";

// The sweep: every operation the server documents (GET /api/docs/json), played by each actor with
// the victim's ids in its path and a body made from its schema, looking at every answer for a 5xx,
// for the victim's private things (world.ts's canaries), for admin data given without two factors,
// and for a write on the victim's things that was accepted. The two-factor admin plays last, as the
// reference: it may see everything, and its writes (a resolved dispute, a suspension) would
// otherwise change what the others meet.

type Schema = Record<string, unknown>;

interface Operation {
  method: string;
  path: string;
  id: string;
  parameters: { in: string; name: string; required?: boolean; schema?: Schema }[];
  body: Schema | null;
}

interface ActorTally {
  actor: string;
  requests: number;
  byClass: Record<string, number>;
  status429: number;
  serverErrors: string[];
  leaks: string[];
  adminData: string[];
  writes: string[];
}

/** Operations that end the caller's own session or account: played last, so the rest runs signed in. */
const ENDS_OWN_SESSION = new Set(["logout", "logoutByLink", "deleteAccount", "endOtherSessions", "endSession", "changePassword", "removeTotp", "removePasskey"]);
/** Writes anyone may make that name the victim: their own block list, a report, a public offer or question. */
const PUBLIC_ACTIONS = new Set(["blockUser", "unblockUser", "createReport", "makeTaskOffer", "withdrawTaskOffer", "askTaskQuestion"]);
/** Reads whose answer is the victim's file or money: any 2xx to someone else is a leak, text or not. */
const PRIVATE_READS = new Set(["getReceipt", "downloadReceiptPdf", "getEscrow", "getTaskDispute", "listMessages", "getDisputePhoto", "getObject", "getObjectUnderApi"]);

function operations(document: { paths: Record<string, Record<string, Record<string, unknown>>> }): Operation[] {
  const ops: Operation[] = [];
  for (const [path, methods] of Object.entries(document.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      const content = (op.requestBody as { content?: Record<string, { schema?: Schema }> } | undefined)?.content;
      ops.push({
        method: method.toUpperCase(),
        path,
        id: String(op.operationId ?? `${method} ${path}`),
        parameters: (op.parameters as Operation["parameters"] | undefined) ?? [],
        body: content?.["application/json"]?.schema ?? null,
      });
    }
  }
  return ops;
}

/** A value for `schema`, named `name`: valid where the schema says enough, and the victim's where it names an id. */
function valueFor(schema: Schema | undefined, name: string, ids: Record<string, string>): unknown {
  if (!schema) return "sweep";
  const anyOf = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  if (anyOf?.[0]) return valueFor(anyOf[0], name, ids);
  const enums = schema.enum as unknown[] | undefined;
  if (enums?.length) return enums.find((e) => e !== "") ?? enums[0];
  if ("const" in schema) return schema.const;
  if (schema.default !== undefined) return schema.default;
  const type = schema.type;
  if (type === "object") {
    const out: Record<string, unknown> = {};
    const props = (schema.properties ?? {}) as Record<string, Schema>;
    for (const key of (schema.required as string[] | undefined) ?? []) out[key] = valueFor(props[key], key, ids);
    return out;
  }
  if (type === "array") {
    const min = Number(schema.minItems ?? 0);
    return Array.from({ length: Math.max(min, 1) }, () => valueFor(schema.items as Schema, name, ids));
  }
  if (type === "integer" || type === "number") {
    const min = typeof schema.minimum === "number" ? schema.minimum : 1;
    const max = typeof schema.maximum === "number" ? schema.maximum : min + 100;
    return name === "year" ? new Date().getFullYear() : Math.min(Math.max(min, 1), max);
  }
  if (type === "boolean") return true;
  if (schema.format === "uuid") return ids[name] ?? ids.id;
  if (schema.format === "email" || /email/i.test(name)) return `sweep-${randomBytes(3).toString("hex")}@probe.test`;
  if (schema.format === "date-time") return new Date(Date.now() + 3 * 86_400_000).toISOString();
  if (/\\d\{4\}-\\d\{2\}-\\d\{2\}\$/.test(String(schema.pattern ?? ""))) return new Date().toISOString().slice(0, 10);
  if (/^(state|startState|endState)$/.test(name)) return "MD";
  if (/zip/i.test(name)) return "21401";
  if (/url$/i.test(name)) return ids.idDocumentPath;
  if (/password/i.test(name)) return "not the password, sweep";
  const min = Number(schema.minLength ?? 1);
  const max = Number(schema.maxLength ?? 200);
  return "sweep probe text, nothing more".padEnd(min, ".").slice(0, Math.max(min, Math.min(max, 30)));
}

/** The victim's id for each path parameter of `op`. */
function pathFor(op: Operation, cast: Cast): string {
  const { ids, victim, devon } = cast;
  const taskFor = /\/offers?\b/.test(op.path) ? ids.offers : /\/reviews\/task\//.test(op.path) ? ids.released : ids.disputed;
  const values: Record<string, string> = {
    id: op.path.startsWith("/api/tasks/")
      ? taskFor
      : op.path.startsWith("/api/receipts/")
        ? ids.receipt
        : op.path.startsWith("/api/admin/reports/")
          ? ids.report
          : op.path.startsWith("/api/admin/reviews/")
            ? ids.review
            : op.path.includes("/sessions/")
              ? victim.sessionId
              : op.path.includes("/passkeys/")
                ? victim.passkeyId
                : /^\/(api\/)?objects\//.test(op.path)
                  ? victim.idDocument.replace("/objects/", "")
                  : op.path.startsWith("/api/admin/tasks/")
                    ? ids.disputed
                    : victim.id,
    taskId: op.path.startsWith("/api/reviews/") ? ids.released : ids.disputed,
    offerId: ids.offer,
    questionId: ids.hiddenQuestion,
    userId: op.path.startsWith("/api/admin/photo-changes/") || op.path.startsWith("/api/blocks/") ? victim.id : devon.id,
    photoId: op.path.startsWith("/api/dispute-photos/") ? ids.disputePhoto : "00000000-0000-4000-8000-000000000000",
    size: "small",
    year: String(new Date().getFullYear()),
    token: randomBytes(32).toString("base64url"),
  };
  return op.path.replace(/\{(\w+)\}/g, (_, name: string) => values[name] ?? "00000000-0000-4000-8000-000000000000");
}

/** Bodies whose schema alone would not reach the victim's things. */
function bodyFor(op: Operation, cast: Cast): unknown {
  const { ids, victim, devon } = cast;
  const special: Record<string, unknown> = {
    sendMessage: { taskId: ids.disputed, content: "sweep probe message" },
    createReview: { taskId: ids.released, reviewedId: devon.id, rating: 1, comment: "sweep probe review" },
    createPaymentIntent: { taskId: ids.disputed, amount: 165 },
    addDisputeMessage: { body: "sweep probe note" },
    reportProblem: { reason: "not_done", description: "sweep probe description" },
    acceptTaskOffer: { price: 45 },
    editTask: { title: "Sweep probe edit", description: "sweep probe", budget: 50 },
    createReport: { targetType: "user", targetId: victim.id, reason: "spam", details: "sweep probe report details" },
    resolveDispute: { refund: 0, reason: "sweep probe resolution" },
    tipProvider: { amount: 5 },
  };
  if (op.id in special) return special[op.id];
  if (!op.body) return undefined;
  const valueIds = {
    id: victim.id,
    taskId: ids.disputed,
    reviewedId: devon.id,
    targetId: victim.id,
    providerId: devon.id,
    idDocumentPath: victim.idDocument,
  };
  return valueFor(op.body, "body", valueIds);
}

function queryFor(op: Operation): string {
  const params = op.parameters.filter((p) => p.in === "query" && p.required);
  if (params.length === 0) return "";
  const q = new URLSearchParams();
  for (const p of params) q.set(p.name, p.name === "q" ? "Annapolis" : String(valueFor(p.schema, p.name, {})));
  return `?${q.toString()}`;
}

/** What of the victim's the state looks like, as the victim reads it: compared before and after the others play. */
async function victimDigest(cast: Cast): Promise<string> {
  const { victim, ids } = cast;
  const reads = [
    `/api/tasks/${ids.disputed}`,
    `/api/tasks/${ids.offers}`,
    `/api/messages/${ids.disputed}`,
    `/api/tasks/${ids.disputed}/dispute`,
    `/api/tasks/${ids.disputed}/escrow`,
    `/api/tasks/${ids.offers}/offers`,
    `/api/reviews/task/${ids.released}`,
    `/api/tasks/${ids.disputed}/questions`,
    "/api/account/security",
    "/api/receipts",
  ];
  const parts: string[] = [];
  for (const path of reads) {
    const answer = await victim.browser.get(path);
    // Times of the last use change by reading; everything else must not.
    parts.push(`${path} ${answer.status} ${answer.text.replace(/"lastUsedAt":"[^"]*"/g, "")}`);
  }
  return createHash("sha256").update(parts.join("\n")).digest("hex");
}

export interface SweepResult {
  operations: number;
  tallies: ActorTally[];
  /** Operations where the one-factor admin got a 2xx and the stranger did not. */
  admin1Beyond: string[];
  victimChanged: boolean;
}

export async function sweep(world: World, cast: Cast): Promise<SweepResult> {
  const anon = world.browser();
  const document = (await anon.get("/api/docs/json")).json<{ paths: Record<string, Record<string, Record<string, unknown>>> }>();
  const ops = operations(document).sort((a, b) => Number(ENDS_OWN_SESSION.has(a.id)) - Number(ENDS_OWN_SESSION.has(b.id)));
  const victimIds = new Set(
    [...Object.values(cast.ids), cast.victim.id, cast.victim.sessionId, cast.victim.passkeyId, cast.victim.idDocument.replace("/objects/", ""), cast.devon.id].filter(Boolean),
  );
  const actors: { name: string; browser: Browser }[] = [
    { name: "signed out", browser: anon },
    { name: "stranger", browser: cast.stranger.browser },
    { name: "provider", browser: cast.provider.browser },
    { name: "one-factor admin", browser: cast.admin1.browser },
    { name: "two-factor admin", browser: cast.admin2.browser },
  ];
  const statuses = new Map<string, Map<string, number>>();
  const tallies: ActorTally[] = [];
  let victimChanged = false;
  const before = await victimDigest(cast);
  for (const actor of actors) {
    if (actor.name === "two-factor admin") victimChanged = (await victimDigest(cast)) !== before;
    const tally: ActorTally = { actor: actor.name, requests: 0, byClass: {}, status429: 0, serverErrors: [], leaks: [], adminData: [], writes: [] };
    const seen = new Map<string, number>();
    statuses.set(actor.name, seen);
    for (const op of ops) {
      const path = pathFor(op, cast) + queryFor(op);
      const body = op.method === "GET" ? undefined : bodyFor(op, cast);
      let answer: Answer;
      try {
        answer = await actor.browser.request(op.method, path, body === undefined ? {} : { json: body });
      } catch (err) {
        tally.serverErrors.push(`${op.method} ${op.path}: ${(err as Error).message}`);
        continue;
      }
      tally.requests += 1;
      seen.set(op.id, answer.status);
      const cls = `${Math.floor(answer.status / 100)}xx`;
      tally.byClass[cls] = (tally.byClass[cls] ?? 0) + 1;
      if (answer.status === 429) tally.status429 += 1;
      const what = `${op.method} ${op.path}`;
      if (answer.status >= 500) tally.serverErrors.push(`${what}: ${brief(answer.status, answer.text)}`);
      if (actor.name === "two-factor admin") continue;
      const ok = answer.status >= 200 && answer.status < 300;
      const sent = path + JSON.stringify(body ?? "");
      const leaked = canariesIn(answer.text, cast.canaries).filter((label) => !sent.includes(cast.canaries.find((c) => c.label === label)?.value ?? "\u0000"));
      if (leaked.length > 0) tally.leaks.push(`${what} (${answer.status}): ${leaked.join(", ")}`);
      else if (ok && PRIVATE_READS.has(op.id)) tally.leaks.push(`${what} answered ${answer.status} (${String(answer.headers["content-type"] ?? "")})`);
      if (ok && (op.path.startsWith("/api/admin/") || op.path === "/metrics")) tally.adminData.push(`${what} answered ${answer.status}`);
      const namesVictim = [...victimIds].some((id) => sent.includes(id));
      if (ok && op.method !== "GET" && namesVictim && !PUBLIC_ACTIONS.has(op.id)) tally.writes.push(`${what} answered ${answer.status}`);
    }
    tallies.push(tally);
  }
  const stranger = statuses.get("stranger") ?? new Map<string, number>();
  const admin1 = statuses.get("one-factor admin") ?? new Map<string, number>();
  const admin1Beyond = [...admin1]
    .filter(([id, status]) => status >= 200 && status < 300 && !((stranger.get(id) ?? 0) >= 200 && (stranger.get(id) ?? 0) < 300))
    .map(([id, status]) => `${id}: one-factor admin ${status}, stranger ${stranger.get(id) ?? "?"}`);
  anon.close();
  return { operations: ops.length, tallies, admin1Beyond, victimChanged };
}

export function judgeSweep(check: Check, result: SweepResult): void {
  for (const t of result.tallies) {
    const classes = Object.entries(t.byClass)
      .sort()
      .map(([c, n]) => `${n} ${c}`)
      .join(", ");
    const reference = t.actor === "two-factor admin";
    const findings = [
      ...t.serverErrors.map((s) => `5xx ${s}`),
      ...t.leaks.map((s) => `leak ${s}`),
      ...t.adminData.map((s) => `admin data ${s}`),
      ...t.writes.map((s) => `write ${s}`),
    ];
    check.expect(
      `${t.actor}${reference ? " (reference: may see everything)" : ""}`,
      findings.length === 0,
      `${t.requests} requests (${classes}; ${t.status429} × 429); ${t.serverErrors.length} 5xx, ${t.leaks.length} leaks, ${t.adminData.length} admin answers, ${t.writes.length} writes accepted` +
        (findings.length ? ` — ${findings.slice(0, 4).join("; ")}${findings.length > 4 ? "; …" : ""}` : ""),
    );
  }
  check.expect(
    "the one-factor admin gets nothing the stranger does not",
    result.admin1Beyond.length === 0,
    result.admin1Beyond.length === 0 ? `none of ${result.operations} operations` : result.admin1Beyond.slice(0, 5).join("; "),
  );
  check.expect("the victim's things are as before after the four others played", !result.victimChanged, result.victimChanged ? "something changed" : "unchanged");
}
