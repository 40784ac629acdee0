import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { call, createUser, type TestUser, useTestApp } from "../../../../test/create-test-app.js";
import { createApplicant, createProvider } from "../../../../test/fixtures/factory.js";
import { checkrSignature } from "../../adapters/background-checks/checkr.js";
import { backgroundCheckEvents, backgroundChecks } from "../../db/schema/background-checks.js";
import { providerProfiles } from "../../db/schema/providers.js";
import { auditLog } from "../../db/schema/users.js";

// The Checkr adapter against a local fake of Checkr's API (candidates and invitations, HTTP Basic
// with the API key), and its webhook signed with X-Checkr-Signature (docs/decisions/064-background-checks.md).

const API_KEY = "test_checkr_key_0123456789";

interface Seen {
  path: string;
  authorization: string | undefined;
  body: Record<string, unknown>;
}
const seen: Seen[] = [];
let candidates = 0;

async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString("utf8")) as Record<string, unknown>;
}

const fake = createServer((req, res) => {
  void readJson(req).then((body) => {
    seen.push({ path: req.url ?? "", authorization: req.headers.authorization, body });
    res.setHeader("content-type", "application/json");
    if (req.url === "/v1/candidates") {
      if (body.email === "refused@example.test") {
        res.writeHead(422).end(JSON.stringify({ error: "Email is invalid" }));
        return;
      }
      candidates += 1;
      res.writeHead(201).end(JSON.stringify({ id: `cand_${candidates}`, object: "candidate", email: body.email }));
      return;
    }
    if (req.url === "/v1/invitations") {
      const id = `inv_${String(body.candidate_id)}`;
      res.writeHead(201).end(JSON.stringify({ id, object: "invitation", status: "pending", invitation_url: `https://apply.checkr.test/invite/${id}`, candidate_id: body.candidate_id, package: body.package }));
      return;
    }
    res.writeHead(404).end(JSON.stringify({ error: "Not found" }));
  });
});
await new Promise<void>((resolve) => fake.listen(0, "127.0.0.1", resolve));
afterAll(() => new Promise<void>((resolve) => fake.close(() => resolve())));

const t = await useTestApp({
  BACKGROUND_CHECKS: "checkr",
  CHECKR_API_KEY: API_KEY,
  CHECKR_BASE_URL: `http://127.0.0.1:${(fake.address() as AddressInfo).port}`,
  CHECKR_PACKAGE: "tasker_standard",
});

// Checkr takes the five-digit ZIP code: a ZIP+4 is cut.
const applicantWaiting = (email?: string) =>
  createApplicant(t, { user: { firstName: "Pat", lastName: "Applicant", ...(email ? { email } : {}) }, profile: { zipCode: "21401-1234" } });

const start = (admin: TestUser, userId: string) => call(t, admin, { method: "POST", url: `/api/admin/providers/${userId}/background-checks/start` });

function reportEvent(id: string, candidateId: string, result: "clear" | "consider") {
  return JSON.stringify({
    id,
    object: "event",
    type: "report.completed",
    created_at: "2026-06-01T12:00:00Z",
    data: { object: { id: `rep_${candidateId}`, object: "report", status: "complete", result, candidate_id: candidateId, package: "tasker_standard" } },
  });
}

function webhook(body: string, signature: string | null) {
  return t.app.inject({
    method: "POST",
    url: "/api/background-checks/checkr/webhook",
    headers: { "content-type": "application/json", ...(signature === null ? {} : { "x-checkr-signature": signature }) },
    payload: body,
  });
}

const checksOf = (userId: string) => t.database.db.select().from(backgroundChecks).where(eq(backgroundChecks.userId, userId));
const auditOf = async (userId: string) => (await t.database.db.select().from(auditLog).where(eq(auditLog.targetId, userId))).map((a) => a.action).sort();

describe("starting a Checkr check", () => {
  it("creates a candidate and an invitation with the API key, and records a pending check with its link", async () => {
    const admin = await createUser(t, { role: "admin" });
    const applicant = await applicantWaiting();
    const res = await start(admin, applicant.id);
    expect(res.statusCode).toBe(201);
    const [candidate, invitation] = seen.slice(-2);
    const basic = `Basic ${Buffer.from(`${API_KEY}:`).toString("base64")}`;
    expect(candidate).toEqual({ path: "/v1/candidates", authorization: basic, body: { first_name: "Pat", last_name: "Applicant", email: applicant.email, zipcode: "21401" } });
    const candidateId = `cand_${candidates}`;
    expect(invitation).toEqual({ path: "/v1/invitations", authorization: basic, body: { candidate_id: candidateId, package: "tasker_standard", work_locations: [{ country: "US", state: "MD" }] } });
    expect(res.json()).toMatchObject({ adapter: "checkr", state: "pending", checkedWhat: "Checkr package tasker_standard", invitationUrl: `https://apply.checkr.test/invite/inv_${candidateId}` });
    expect(await auditOf(applicant.id)).toEqual(["background_check.start"]);

    const again = await start(admin, applicant.id);
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toMatch(/already pending/);
    const approve = await call(t, admin, { method: "POST", url: `/api/admin/applications/${applicant.id}/approve` });
    expect(approve.statusCode).toBe(409);
    expect(approve.json().message).toMatch(/still pending/);
  });

  it("answers 502 with a sentence and records nothing when Checkr refuses", async () => {
    const admin = await createUser(t, { role: "admin" });
    const applicant = await applicantWaiting("refused@example.test");
    const res = await start(admin, applicant.id);
    expect(res.statusCode).toBe(502);
    expect(res.json().message).toMatch(/record the check by hand/);
    expect(await checksOf(applicant.id)).toEqual([]);
  });
});

describe("Checkr's webhook", () => {
  it("refuses a missing or wrong signature with 401 and changes nothing", async () => {
    const admin = await createUser(t, { role: "admin" });
    const applicant = await applicantWaiting();
    expect((await start(admin, applicant.id)).statusCode).toBe(201);
    const body = reportEvent("evt_forged", `cand_${candidates}`, "clear");
    expect((await webhook(body, null)).statusCode).toBe(401);
    const forged = await webhook(body, checkrSignature("not-the-key", body));
    expect(forged.statusCode).toBe(401);
    expect(forged.json().message).toMatch(/does not match/);
    const tampered = await webhook(body.replace("clear", "consider"), checkrSignature(API_KEY, body));
    expect(tampered.statusCode).toBe(401);
    expect((await checksOf(applicant.id)).map((c) => c.result)).toEqual([null]);
    expect(await t.database.db.select().from(backgroundCheckEvents).where(eq(backgroundCheckEvents.id, "evt_forged"))).toEqual([]);
  });

  it("records a signed report once: a replayed event changes nothing", async () => {
    const admin = await createUser(t, { role: "admin" });
    const applicant = await applicantWaiting();
    expect((await start(admin, applicant.id)).statusCode).toBe(201);
    const candidateId = `cand_${candidates}`;
    const body = reportEvent(`evt_clear_${candidateId}`, candidateId, "clear");
    expect((await webhook(body, checkrSignature(API_KEY, body))).statusCode).toBe(200);
    const [check] = await checksOf(applicant.id);
    expect(check).toMatchObject({ result: "clear", reportId: `rep_${candidateId}`, completedAt: t.clock.now() });
    expect(await auditOf(applicant.id)).toEqual(["background_check.result", "background_check.start"]);

    t.clock.advance(60_000);
    expect((await webhook(body, checkrSignature(API_KEY, body))).statusCode).toBe(200);
    expect(await auditOf(applicant.id)).toEqual(["background_check.result", "background_check.start"]);
    expect((await checksOf(applicant.id))[0]?.completedAt).toEqual(check?.completedAt);
    expect((await call(t, admin, { method: "POST", url: `/api/admin/applications/${applicant.id}/approve` })).statusCode).toBe(200);
  });

  it("pauses an approved provider whose new report comes back consider", async () => {
    const admin = await createUser(t, { role: "admin" });
    const provider = await createProvider(t);
    expect((await start(admin, provider.id)).statusCode).toBe(201);
    const candidateId = `cand_${candidates}`;
    const body = reportEvent(`evt_consider_${candidateId}`, candidateId, "consider");
    expect((await webhook(body, checkrSignature(API_KEY, body))).statusCode).toBe(200);
    const [row] = await t.database.db.select({ status: providerProfiles.verificationStatus }).from(providerProfiles).where(eq(providerProfiles.userId, provider.id));
    expect(row?.status).toBe("under_review");
    const pause = await t.database.db.select().from(auditLog).where(eq(auditLog.action, "provider_application.pause"));
    expect(pause).toEqual([expect.objectContaining({ targetId: provider.id, actorId: null })]);
    const own = await call(t, provider, { url: "/api/provider/profile" });
    expect(own.json().backgroundCheck).toMatchObject({ state: "consider", reason: expect.stringMatching(/needs review/) });
  });
});
