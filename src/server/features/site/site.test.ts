import { count, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { call, createUser, useTestApp, type TestApp } from "../../../../test/create-test-app.js";
import { APPOINTMENT_MESSAGES } from "../../../shared/site.js";
import { appointments, contactMessages } from "../../db/schema/site.js";

// The test clock starts at 2026-06-01T12:00Z (08:00 in Annapolis, EDT).
const t = await useTestApp();

let ipCounter = 0;
/** Each test writes from its own address, so the per-IP limit only bites where a test means it to. */
function freshIp(): string {
  ipCounter += 1;
  return `10.0.${Math.floor(ipCounter / 250)}.${ipCounter % 250}`;
}

function post(app: TestApp, url: string, payload: object, ip: string) {
  return call(app, null, { method: "POST", url, payload, remoteAddress: ip });
}

const contact = { name: "Ann Lee", email: "Ann@Example.test", subject: "Question", message: "How do payouts work?" };
const appointment = {
  name: "Ann Lee",
  email: "ann@example.test",
  phone: "(410) 555-0142",
  appointmentDate: "2026-06-03T14:00:00.000Z",
  reason: "I would like to talk about becoming a provider.",
  preferContact: "call",
};

const rows = async (table: typeof contactMessages | typeof appointments) => {
  const [row] = await t.database.db.select({ n: count() }).from(table);
  return row?.n ?? 0;
};

describe("POST /api/contact", () => {
  it("stores the message and answers 201 with its id", async () => {
    const res = await post(t, "/api/contact", contact, freshIp());
    expect(res.statusCode).toBe(201);
    const { ok, id } = res.json<{ ok: boolean; id: string }>();
    expect(ok).toBe(true);
    const [stored] = await t.database.db.select().from(contactMessages).where(eq(contactMessages.id, id));
    expect(stored).toMatchObject({ name: "Ann Lee", email: "ann@example.test", subject: "Question", message: "How do payouts work?" });
  });

  it.each([
    [{ name: "   " }, /^name: Name is required/],
    [{ email: "not-an-email" }, /^email: Invalid email address/],
    [{ subject: undefined }, /^subject: Subject is required/],
    [{ message: "" }, /^message: Message is required/],
    [{ message: "x".repeat(5001) }, /^message: Message must be at most 5000 characters/],
    [{ name: "n".repeat(101) }, /^name: Name must be at most 100 characters/],
  ])("refuses %# with 400 naming the field and stores nothing", async (override, pattern) => {
    const before = await rows(contactMessages);
    const res = await post(t, "/api/contact", { ...contact, ...override }, freshIp());
    expect(res.statusCode).toBe(400);
    expect(res.json<{ message: string }>().message).toMatch(pattern);
    expect(await rows(contactMessages)).toBe(before);
  });

  it("answers 429 after 5 messages from one address in 10 minutes, and again later", async () => {
    const ip = freshIp();
    for (let i = 0; i < 5; i += 1) expect((await post(t, "/api/contact", contact, ip)).statusCode).toBe(201);
    const before = await rows(contactMessages);
    const limited = await post(t, "/api/contact", contact, ip);
    expect(limited.statusCode).toBe(429);
    expect(limited.json<{ message: string }>().message).toMatch(/Too many requests/);
    expect(limited.headers["retry-after"]).toBeDefined();
    expect(await rows(contactMessages)).toBe(before);
    // Another address is not affected.
    expect((await post(t, "/api/contact", contact, freshIp())).statusCode).toBe(201);
    t.clock.advance(10 * 60_000 + 1000);
    expect((await post(t, "/api/contact", contact, ip)).statusCode).toBe(201);
  });
});

describe("POST /api/appointments", () => {
  it("stores the request and answers 201 with its id", async () => {
    const res = await post(t, "/api/appointments", appointment, freshIp());
    expect(res.statusCode).toBe(201);
    const { id } = res.json<{ id: string }>();
    const [stored] = await t.database.db.select().from(appointments).where(eq(appointments.id, id));
    expect(stored?.appointmentDate.toISOString()).toBe(appointment.appointmentDate);
    expect(stored).toMatchObject({ name: "Ann Lee", phone: "(410) 555-0142", preferContact: "call" });
  });

  it("defaults the contact method to an office visit", async () => {
    const { preferContact: _omitted, ...withoutMethod } = appointment;
    const res = await post(t, "/api/appointments", withoutMethod, freshIp());
    expect(res.statusCode).toBe(201);
    const [stored] = await t.database.db.select().from(appointments).where(eq(appointments.id, res.json<{ id: string }>().id));
    expect(stored?.preferContact).toBe("visit");
  });

  it("accepts opening time on the office's tomorrow and refuses a minute before its midnight", async () => {
    const now = t.clock.now();
    const officeMidnight = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1, 4)); // EDT is UTC-4
    const opening = new Date(officeMidnight.getTime() + 9 * 3_600_000);
    const ok = await post(t, "/api/appointments", { ...appointment, appointmentDate: opening.toISOString() }, freshIp());
    expect(ok.statusCode).toBe(201);
    const early = new Date(officeMidnight.getTime() - 60_000).toISOString();
    const refused = await post(t, "/api/appointments", { ...appointment, appointmentDate: early }, freshIp());
    expect(refused.statusCode).toBe(400);
    expect(refused.json<{ message: string }>().message).toBe("appointmentDate: Appointment must be scheduled at least 1 day in advance");
  });

  it.each([
    ["8:59 AM", "2026-06-03T12:59:00.000Z", 400],
    ["9:00 AM", "2026-06-03T13:00:00.000Z", 201],
    ["6:00 PM", "2026-06-03T22:00:00.000Z", 201],
    ["6:01 PM", "2026-06-03T22:01:00.000Z", 400],
    ["midnight", "2026-06-04T04:00:00.000Z", 400],
  ])("office hours: %s Eastern answers %i", async (_label, appointmentDate, status) => {
    const res = await post(t, "/api/appointments", { ...appointment, appointmentDate }, freshIp());
    expect(res.statusCode).toBe(status);
    if (status === 400) {
      expect(res.json()).toEqual({
        message: `appointmentDate: ${APPOINTMENT_MESSAGES.hours}`,
        fieldErrors: { appointmentDate: APPOINTMENT_MESSAGES.hours },
      });
    }
  });

  it.each([
    [{ name: "A" }, /^name: Name must be at least 2 characters/],
    [{ email: "nope" }, /^email: Invalid email address/],
    [{ phone: "555-0142" }, /^phone: Phone number must be at least 10 digits/],
    [{ phone: "1".repeat(31) }, /^phone: Phone number must be at most 30 characters/],
    [{ reason: "short" }, /^reason: Please provide a detailed reason \(at least 10 characters\)/],
    [{ preferContact: "email" }, /^preferContact: Please select your preferred contact method/],
    [{ appointmentDate: "tomorrow" }, /^appointmentDate: /],
    [{ appointmentDate: "2026-06-01T18:00:00.000Z" }, /^appointmentDate: Appointment must be scheduled at least 1 day in advance/],
    [{ appointmentDate: "2027-12-01T14:00:00.000Z" }, /^appointmentDate: Appointment must be within the next 12 months/],
  ])("refuses %# with 400 naming the field and stores nothing", async (override, pattern) => {
    const before = await rows(appointments);
    const res = await post(t, "/api/appointments", { ...appointment, ...override }, freshIp());
    expect(res.statusCode).toBe(400);
    expect(res.json<{ message: string }>().message).toMatch(pattern);
    expect(await rows(appointments)).toBe(before);
  });

  it("answers 429 after 5 requests from one address in 10 minutes", async () => {
    const ip = freshIp();
    for (let i = 0; i < 5; i += 1) expect((await post(t, "/api/appointments", appointment, ip)).statusCode).toBe(201);
    const before = await rows(appointments);
    expect((await post(t, "/api/appointments", appointment, ip)).statusCode).toBe(429);
    expect(await rows(appointments)).toBe(before);
  });
});

describe("admin lists", () => {
  it.each(["/api/admin/contact-messages", "/api/admin/appointments"])("%s refuses signed-out (401) and non-admins (403)", async (url) => {
    expect((await call(t, null, { url })).statusCode).toBe(401);
    const user = await createUser(t);
    const provider = await createUser(t, { verifiedProvider: true });
    expect((await call(t, user, { url })).statusCode).toBe(403);
    expect((await call(t, provider, { url })).statusCode).toBe(403);
  });

  it("lists contact messages newest first, paged", async () => {
    const admin = await createUser(t, { role: "admin" });
    for (const subject of ["first", "second", "third"]) {
      t.clock.advance(1000);
      expect((await post(t, "/api/contact", { ...contact, subject }, freshIp())).statusCode).toBe(201);
    }
    const total = await rows(contactMessages);
    const res = await call(t, admin, { url: "/api/admin/contact-messages?page=1&pageSize=2" });
    expect(res.statusCode).toBe(200);
    const body = res.json<{ items: { subject: string }[]; total: number; page: number; pageSize: number }>();
    expect(body.items.map((i) => i.subject)).toEqual(["third", "second"]);
    expect(body).toMatchObject({ total, page: 1, pageSize: 2 });
    const second = await call(t, admin, { url: "/api/admin/contact-messages?page=2&pageSize=2" });
    expect(second.json<{ items: { subject: string }[] }>().items[0]?.subject).toBe("first");
    expect((await call(t, admin, { url: "/api/admin/contact-messages?pageSize=1000" })).statusCode).toBe(400);
  });

  it("lists appointments newest first with their fields", async () => {
    const admin = await createUser(t, { role: "admin" });
    t.clock.advance(1000);
    const res = await post(t, "/api/appointments", { ...appointment, name: "Newest Person", appointmentDate: "2026-06-20T14:00:00.000Z" }, freshIp());
    expect(res.statusCode).toBe(201);
    const list = await call(t, admin, { url: "/api/admin/appointments" });
    expect(list.statusCode).toBe(200);
    const [first] = list.json<{ items: Record<string, unknown>[] }>().items;
    expect(first).toEqual({
      id: res.json<{ id: string }>().id,
      name: "Newest Person",
      email: "ann@example.test",
      phone: "(410) 555-0142",
      appointmentDate: "2026-06-20T14:00:00.000Z",
      reason: appointment.reason,
      preferContact: "call",
      createdAt: t.clock.now().toISOString(),
    });
  });
});

describe("retention", () => {
  it("drops messages received and visits held more than two years ago, keeps the rest", async () => {
    const ip = freshIp();
    const old = await post(t, "/api/contact", { ...contact, subject: "old" }, ip);
    const visit = await post(t, "/api/appointments", { ...appointment, appointmentDate: "2026-06-20T14:00:00.000Z" }, ip);
    expect([old.statusCode, visit.statusCode]).toEqual([201, 201]);
    // Two years after the message but before two years after the visit: only the message goes.
    t.clock.set(new Date("2028-06-10T12:00:00.000Z"));
    const fresh = await post(t, "/api/contact", { ...contact, subject: "fresh" }, freshIp());
    await t.app.ctx.scheduler.runAll();
    const ids = async (table: typeof contactMessages | typeof appointments) =>
      (await t.database.db.select({ id: table.id }).from(table)).map((r) => r.id);
    expect(await ids(contactMessages)).toEqual([fresh.json<{ id: string }>().id]);
    expect(await ids(appointments)).toContain(visit.json<{ id: string }>().id);
    t.clock.set(new Date("2028-06-21T12:00:00.000Z"));
    await t.app.ctx.scheduler.runAll();
    expect(await ids(appointments)).not.toContain(visit.json<{ id: string }>().id);
    expect(await ids(contactMessages)).toEqual([fresh.json<{ id: string }>().id]);
  });
});
