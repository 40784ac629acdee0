import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { request, type APIRequestContext, type Browser, type BrowserContext, type Locator, type Page } from "playwright-core";
import { displayName } from "../src/shared/names.js";
import { apiCall, applyThroughApi, approveThroughApi, DEMO, connectBrowser, newPage, registerThroughApi, signInThroughApi, startServer, type RunningServer } from "./harness.js";

// Stored XSS (issue #8): hostile text goes into every user-written field through the API, then the
// real pages that show it are opened in Chromium. Each page must show the text literally and run
// none of it. CSP would stop an injected handler from running even if React rendered raw HTML, so
// "no script ran" alone could not fail: the page is also searched for any element or attribute the
// markup would have created, and every CSP violation report is counted (there must be none).

const POLL = { timeout: 20_000, interval: 100 };

/** Each part runs script if it is ever parsed as HTML (or followed as a link). */
const PARTS = [
  `<img src=x onerror="window.__xss=(window.__xss||0)+1">`,
  `"><svg onload=window.__xss=1>`,
  `<script>window.__xss=1</script>`,
  `[x](javascript:alert(1))`,
  `<img src=x onerror=alert(1)>`,
  `<a href="javascript:window.__xss=1">link</a>`,
];

/** A labelled payload with as many parts as the field's length limit allows. */
function hostile(label: string, max: number): string {
  let text = label;
  for (const part of PARTS) if (text.length + 1 + part.length <= max) text += ` ${part}`;
  return text;
}

// Names: 60 characters at most, a different part in each.
const MALLORY = { email: "mallory@example.test", firstName: `<img src=x onerror=alert(1)>Mal`, lastName: `"><svg onload=window.__xss=1>` };
const TRUDY = { email: "trudy@example.test", firstName: `<script>window.__xss=1</script>`, lastName: `[x](javascript:alert(1))` };
const REX = { email: "rex@example.test", firstName: `<img src=x onerror="window.__xss=(window.__xss||0)+1">`, lastName: `</p><b>Rex</b>` };

const TEXT = {
  t1Title: hostile("t1-title", 120),
  t1Description: hostile("t1-description", 5000),
  t1Start: hostile("t1-start", 300),
  t1StopAddress: hostile("t1-stop", 300),
  t1StopNotes: hostile("t1-stop-notes", 500),
  t1End: hostile("t1-end", 300),
  t2Title: `t2-title ${PARTS[2]} ${PARTS[3]}`,
  t2Description: hostile("t2-description", 5000),
  t2Location: hostile("t2-location", 300),
  t2City: hostile("t2-city", 100),
  posterChat: hostile("poster-chat", 2000),
  providerChat: hostile("provider-chat", 2000),
  posterReview: hostile("poster-review", 1000),
  providerReview: hostile("provider-review", 1000),
  problem: hostile("problem-report", 1000),
  resolution: hostile("dispute-resolution", 1000),
  felix: hostile("felix-question", 1000),
  trudyAddress: hostile("trudy-address", 200),
  trudyCity: hostile("trudy-city", 100),
  trudyBio: hostile("trudy-bio", 2000),
  trudyProfileBio: hostile("trudy-profile-bio", 2000),
  rexAddress: hostile("rex-address", 200),
  rexCity: hostile("rex-city", 100),
  rexBio: hostile("rex-bio", 2000),
  rejection: hostile("rejection-reason", 1000),
  contactName: hostile("contact-name", 100),
  contactSubject: hostile("contact-subject", 200),
  contactMessage: hostile("contact-message", 5000),
  appointmentName: hostile("appointment-name", 100),
  appointmentReason: hostile("appointment-reason", 2000),
  // At least ten digits, at most 30 characters: the inbox links it as tel:, never as script.
  phone: "javascript:alert(4105550123)",
  search: hostile("search", 200),
};

interface Actor {
  api: APIRequestContext;
  id: string;
  email: string;
}

let server: RunningServer;
let browser: Browser;
let context: BrowserContext;
let page: Awaited<ReturnType<typeof newPage>>;
const dialogs: string[] = [];
const actors: APIRequestContext[] = [];
let admin: Actor;
let mallory: Actor;
let trudy: Actor;
let rex: Actor;
let t1 = "";
let t2 = "";

async function apiContext(): Promise<APIRequestContext> {
  const api = await request.newContext({ baseURL: server.url, extraHTTPHeaders: { origin: server.url } });
  actors.push(api);
  return api;
}

async function register(person: { email: string; firstName: string; lastName: string }): Promise<Actor> {
  const api = await apiContext();
  const user = await registerThroughApi(server, api, { ...person, password: "amber falcon ribbon 9" });
  // Stored as typed: nothing is stripped or encoded on the way in.
  expect(user).toMatchObject({ firstName: person.firstName, lastName: person.lastName });
  return { api, id: user.id, email: person.email };
}

async function signInApi(email: string): Promise<Actor> {
  const api = await apiContext();
  await signInThroughApi(api, email, DEMO.password);
  const user = await apiCall<{ id: string }>(api, "GET", "/api/auth/user");
  return { api, id: user.id, email };
}

const apply = (actor: Actor, fields: { address: string; city: string; bio: string; phone: string }) => applyThroughApi(actor.api, actor.email, fields);

/** Opens a page as `actor` (signed out with null): one browser context, the session cookie swapped. */
async function visit(actor: Actor | null, path: string): Promise<void> {
  // Leave the previous page first: once its cookie is gone, its next request answers 401 and it would
  // navigate to sign-in in the middle of the goto below.
  await page.goto("about:blank");
  await context.clearCookies();
  if (actor) await context.addCookies((await actor.api.storageState()).cookies);
  await page.goto(`${server.url}${path}`);
  await page.locator("h1").first().waitFor({ state: "visible", timeout: POLL.timeout });
}

/** The text is on screen as typed: getByText finds it only if no part of it became markup. */
async function shows(scope: Page | Locator, text: string): Promise<void> {
  await expect.poll(() => scope.getByText(text).first().isVisible(), { ...POLL, message: `literal text on ${page.url()}: ${text}` }).toBe(true);
}

/** Nothing ran and nothing was parsed: no marker, no dialog, no injected element or handler, no CSP report. */
async function expectInert(): Promise<void> {
  const state = await page.evaluate(() => {
    const w = window as unknown as { __xss?: unknown; __cspViolations?: string[] };
    const injected: string[] = [];
    for (const el of Array.from(document.querySelectorAll("*"))) {
      for (const attr of Array.from(el.attributes)) {
        const name = attr.name.toLowerCase();
        // Browsers drop control characters and spaces in a URL scheme ("java\tscript:" still runs).
        const value = Array.from(attr.value)
          .filter((ch) => ch.charCodeAt(0) > 0x20)
          .join("")
          .toLowerCase();
        if (name.startsWith("on")) injected.push(`<${el.tagName.toLowerCase()} ${name}>`);
        if (value.startsWith("javascript:") && ["href", "src", "action", "formaction", "xlink:href", "data"].includes(name)) {
          injected.push(`<${el.tagName.toLowerCase()} ${name}="${attr.value}">`);
        }
      }
    }
    // The one inline script a page may have is the server's data block (docs/decisions/036-server-rendered-data-pages.md):
    // JSON the browser never runs; any other, or a second one, came from user text.
    const dataBlocks = document.querySelectorAll('script#page-data[type="application/json"]');
    if (dataBlocks.length > 1) injected.push(`${dataBlocks.length} page-data elements`);
    for (const el of Array.from(document.querySelectorAll('img[src="x"], script:not([src]):not(#page-data[type="application/json"]), iframe, object, embed'))) {
      injected.push(el.outerHTML.slice(0, 120));
    }
    return { xss: w.__xss, violations: w.__cspViolations ?? [], injected };
  });
  const where = page.url();
  expect(state.xss, `window.__xss on ${where}`).toBeUndefined();
  expect(state.injected, `elements parsed from user text on ${where}`).toEqual([]);
  expect(state.violations, `CSP reports on ${where}`).toEqual([]);
  expect(dialogs, `dialogs on ${where}`).toEqual([]);
}

async function openBell(): Promise<Locator> {
  await page.getByRole("button", { name: /^Notifications, \d+ unread$/ }).click();
  const popover = page.getByRole("dialog", { name: "Notifications" });
  await popover.waitFor({ state: "visible" });
  return popover;
}

beforeAll(async () => {
  server = await startServer();
  browser = await connectBrowser();
  context = await browser.newContext();
  // Before any page script: count CSP reports (an injected handler that CSP blocked still reports).
  await context.addInitScript(() => {
    const w = window as unknown as { __cspViolations: string[] };
    w.__cspViolations = [];
    document.addEventListener(
      "securitypolicyviolation",
      (e) => w.__cspViolations.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber} ${e.sample}`),
      true,
    );
  });
  page = await newPage(context);
  page.on("dialog", (dialog) => {
    dialogs.push(`${dialog.type()}: ${dialog.message()}`);
    void dialog.dismiss();
  });
  admin = await signInApi(DEMO.admin);
});
afterAll(async () => {
  for (const api of actors) await api.dispose();
  await browser?.close();
  await server?.stop();
});

describe("stored XSS", () => {
  it("provider applications: names, address, city and bio for the admin; the rejection reason for the applicant; the public directory", async () => {
    trudy = await register(TRUDY);
    rex = await register(REX);
    await apply(trudy, { address: TEXT.trudyAddress, city: TEXT.trudyCity, bio: TEXT.trudyBio, phone: "410-555-0100" });
    await apply(rex, { address: TEXT.rexAddress, city: TEXT.rexCity, bio: TEXT.rexBio, phone: TEXT.phone });

    await visit(admin, "/admin");
    const rexCard = page.getByRole("article", { name: `Application from ${REX.firstName} ${REX.lastName}` });
    await expect.poll(() => rexCard.isVisible(), POLL).toBe(true);
    await shows(rexCard, REX.firstName);
    await shows(rexCard, TEXT.rexCity);
    const trudyCard = page.getByRole("article", { name: `Application from ${TRUDY.firstName} ${TRUDY.lastName}` });
    await shows(trudyCard, `${TRUDY.firstName} ${TRUDY.lastName}`);
    await shows(trudyCard, TEXT.trudyCity);
    const details = page.getByRole("dialog", { name: "Application Details" });
    const applicants: [Locator, string[]][] = [
      [rexCard, [`${REX.firstName} ${REX.lastName}`, TEXT.rexAddress, TEXT.rexCity, TEXT.rexBio, TEXT.phone]],
      [trudyCard, [`${TRUDY.firstName} ${TRUDY.lastName}`, TEXT.trudyAddress, TEXT.trudyCity, TEXT.trudyBio]],
    ];
    for (const [card, texts] of applicants) {
      await card.getByRole("button", { name: "View Details" }).click();
      for (const text of texts) await shows(details, text);
      await expectInert();
      await page.keyboard.press("Escape");
      await expect.poll(() => details.isVisible(), POLL).toBe(false);
    }

    await approveThroughApi(admin.api, trudy.id);
    await apiCall(admin.api, "POST", `/api/admin/applications/${rex.id}/reject`, { reason: TEXT.rejection });
    await apiCall(trudy.api, "PATCH", "/api/provider/profile", { bio: TEXT.trudyProfileBio });

    // The applicant: the dashboard alert, the notification quoting the reason, the form's banner.
    await visit(rex, "/dashboard");
    await shows(page.getByRole("status").filter({ hasText: "Application Rejected" }), TEXT.rejection);
    await expectInert();
    await shows(await openBell(), TEXT.rejection);
    await expectInert();
    await visit(rex, "/become-provider");
    await shows(page, TEXT.rejection);
    await expectInert();

    // The public directory and the provider's own profile form.
    await visit(null, "/providers");
    // Strangers see the display name (docs/product.md, "People you can see").
    await shows(page, displayName(TRUDY));
    await shows(page, TEXT.trudyCity);
    await shows(page, TEXT.trudyProfileBio);
    await expectInert();
    await visit(trudy, "/provider/profile");
    await expect.poll(() => page.getByLabel("Bio").inputValue(), POLL).toBe(TEXT.trudyProfileBio);
    await expectInert();

    // The admin's audit log (the reason) and outbox (the e-mail quoting it, behind a <details>).
    await visit(admin, "/admin/audit");
    await shows(page.getByRole("table"), TEXT.rejection);
    await expectInert();
    // The e-mail is queued after the decision and the page does not poll: reload until it is listed.
    await expect
      .poll(async () => {
        await visit(admin, "/admin/outbox");
        await page.getByRole("listitem").first().waitFor({ state: "visible", timeout: POLL.timeout });
        await page.evaluate(() => document.querySelectorAll("details").forEach((d) => (d.open = true)));
        return page.getByText(TEXT.rejection).first().isVisible();
      }, { ...POLL, interval: 500 })
      .toBe(true);
    await expectInert();
  });

  it("tasks: title, description, places and poster names on the job board, the task page, the dashboard, Felix and the bell", async () => {
    mallory = await register(MALLORY);
    const post = async (body: Record<string, unknown>) => (await apiCall<{ id: string }>(mallory.api, "POST", "/api/tasks", body)).id;
    t1 = await post({
      title: TEXT.t1Title,
      description: TEXT.t1Description,
      category: "delivery",
      budget: 150,
      urgency: "standard",
      startLocation: TEXT.t1Start,
      startCity: "Annapolis",
      startState: "MD",
      startLat: 38.9784,
      startLon: -76.4922,
      stops: [{ address: TEXT.t1StopAddress, city: "Bowie", state: "MD", notes: TEXT.t1StopNotes, lat: 38.9429, lon: -76.7302 }],
      endLocation: TEXT.t1End,
      endCity: "Baltimore",
      endState: "MD",
      endLat: 39.2847,
      endLon: -76.6133,
    });
    t2 = await post({
      title: TEXT.t2Title,
      description: TEXT.t2Description,
      category: "errands",
      budget: 30,
      location: TEXT.t2Location,
      city: TEXT.t2City,
      state: "MD",
    });

    // Signed out: the job board (with a hostile search in the address bar) and a public task page.
    await visit(null, "/job-board");
    const card = page.getByTestId("job-card").filter({ hasText: TEXT.t2Title });
    await shows(card, TEXT.t2Title);
    await shows(card, TEXT.t2Description);
    await shows(card, TEXT.t2City);
    await shows(card, `Posted by ${MALLORY.firstName} ${MALLORY.lastName.charAt(0)}.`);
    await shows(page.getByTestId("job-card").filter({ hasText: TEXT.t1Title }), TEXT.t1Title);
    await expectInert();
    await visit(null, `/jobs?search=${encodeURIComponent(TEXT.search)}`);
    await expect.poll(() => page.getByRole("searchbox", { name: "Search tasks" }).inputValue(), POLL).toBe(TEXT.search);
    await expectInert();
    await visit(null, `/task/${t2}`);
    await shows(page.getByRole("heading", { level: 1 }), TEXT.t2Title);
    await shows(page, TEXT.t2Description);
    await shows(page, `Posted by ${displayName(MALLORY)}`);
    await expectInert();

    // A provider asks Felix about the task: the greeting quotes the title, the question is echoed.
    await visit(trudy, "/job-board");
    const t1Card = page.getByTestId("job-card").filter({ hasText: TEXT.t1Title });
    await t1Card.getByRole("button", { name: /Ask Felix/ }).click();
    const felix = page.getByRole("dialog", { name: "Ask Felix - Budget Evaluator" });
    await shows(felix, `Task: ${TEXT.t1Title}`);
    await expect.poll(() => felix.getByRole("region", { name: "Budget evaluation" }).isVisible(), POLL).toBe(true);
    const input = felix.getByLabel("Message Felix");
    await input.fill(TEXT.felix);
    await input.press("Enter");
    await shows(felix.getByRole("log"), TEXT.felix);
    await expect.poll(() => felix.getByText(/^Felix: /).count(), POLL).toBeGreaterThanOrEqual(3);
    await expectInert();
    await page.keyboard.press("Escape");

    await apiCall(trudy.api, "PATCH", `/api/tasks/${t1}/claim`);

    // The poster: the dashboard, the private task page with every address, the bell quoting the title.
    await visit(mallory, "/dashboard");
    await expect.poll(() => page.getByLabel(`Signed in as ${MALLORY.firstName} ${MALLORY.lastName}`).isVisible(), POLL).toBe(true);
    await shows(page.getByTestId("dashboard-task-card").filter({ hasText: TEXT.t1Title }), TEXT.t1Title);
    await shows(page.getByTestId("dashboard-task-card").filter({ hasText: TEXT.t2Title }), TEXT.t2City);
    await expectInert();
    await shows(await openBell(), TEXT.t1Title);
    await expectInert();
    await visit(mallory, `/task/${t1}`);
    await shows(page.getByRole("heading", { level: 1 }), TEXT.t1Title);
    for (const text of [TEXT.t1Description, TEXT.t1Start, TEXT.t1StopAddress, TEXT.t1StopNotes, TEXT.t1End]) await shows(page, text);
    await expectInert();
    await visit(mallory, `/task/${t2}`);
    await shows(page, TEXT.t2Location);
    await expectInert();

    // The admin's active-provider card shows the task being worked on.
    await visit(admin, "/admin");
    await page.getByRole("tab", { name: /Active Providers/ }).click();
    await shows(page, TEXT.t1Title);
    await shows(page, `${TRUDY.firstName} ${TRUDY.lastName}`);
    await expectInert();
  });

  it("chat, reviews and a dispute: the task page for both sides, earnings, admin finance and the audit log", async () => {
    await apiCall(mallory.api, "POST", "/api/messages", { taskId: t1, content: TEXT.posterChat });
    await apiCall(trudy.api, "POST", "/api/messages", { taskId: t1, content: TEXT.providerChat });
    const task = await apiCall<{ totalAmount: number }>(mallory.api, "GET", `/api/tasks/${t1}`);
    const { clientSecret } = await apiCall<{ clientSecret: string }>(mallory.api, "POST", "/api/create-payment-intent", { amount: task.totalAmount, taskId: t1 });
    await apiCall(mallory.api, "POST", "/api/sandbox/payments/confirm", { clientSecret, cardNumber: "4242424242424242", expMonth: 12, expYear: 2030, cvc: "123" });
    await apiCall(trudy.api, "PATCH", `/api/tasks/${t1}/start`);
    await apiCall(trudy.api, "PATCH", `/api/tasks/${t1}/complete`);
    await apiCall(mallory.api, "POST", "/api/reviews", { taskId: t1, reviewedId: trudy.id, rating: 2, comment: TEXT.posterReview });
    await apiCall(trudy.api, "POST", "/api/reviews", { taskId: t1, reviewedId: mallory.id, rating: 3, comment: TEXT.providerReview });
    await apiCall(mallory.api, "POST", `/api/tasks/${t1}/report-problem`, { reason: "not_done", description: TEXT.problem });

    for (const actor of [mallory, trudy]) {
      await visit(actor, `/task/${t1}`);
      const log = page.getByRole("log", { name: "Messages" });
      await shows(log, TEXT.posterChat);
      await shows(log, TEXT.providerChat);
      await shows(page, TEXT.posterReview);
      await shows(page, TEXT.providerReview);
      await shows(page.getByRole("list", { name: "Dispute thread" }), TEXT.problem);
      // Reviewer names are "First L.": the other side's first name is shown as typed.
      await shows(page, actor === mallory ? `${TRUDY.firstName} ${TRUDY.lastName.charAt(0)}.` : `${MALLORY.firstName} ${MALLORY.lastName.charAt(0)}.`);
      await expectInert();
    }
    await visit(trudy, "/earnings");
    await shows(page.getByRole("row").filter({ hasText: TEXT.t1Title }), TEXT.t1Title);
    await expectInert();

    await visit(admin, "/admin/finance");
    for (const text of [TEXT.t1Title, MALLORY.firstName, TRUDY.firstName]) await shows(page, text);
    await expectInert();
    await apiCall(admin.api, "POST", `/api/admin/disputes/${t1}/resolve`, { refund: 0, reason: TEXT.resolution });
    await visit(admin, "/admin/audit");
    await shows(page.getByRole("table"), TEXT.resolution);
    await expectInert();
  });

  it("contact messages and appointment requests in the admin inbox", async () => {
    const visitor = await apiContext();
    await apiCall(visitor, "POST", "/api/contact", { name: TEXT.contactName, email: "visitor@example.test", subject: TEXT.contactSubject, message: TEXT.contactMessage });
    await apiCall(visitor, "POST", "/api/appointments", {
      name: TEXT.appointmentName,
      email: "visitor@example.test",
      phone: TEXT.phone,
      // 15:00 UTC is 10 or 11 AM in Annapolis: within opening hours.
      appointmentDate: new Date(new Date(Date.now() + 3 * 86_400_000).setUTCHours(15, 0, 0, 0)).toISOString(),
      reason: TEXT.appointmentReason,
      preferContact: "call",
    });

    await visit(admin, "/admin/inbox");
    const messages = page.getByRole("table", { name: "Contact messages" });
    for (const text of [TEXT.contactName, TEXT.contactSubject, TEXT.contactMessage]) await shows(messages, text);
    await expectInert();
    await page.getByRole("tab", { name: "Appointment Requests" }).click();
    const appointments = page.getByRole("table", { name: "Appointment requests" });
    for (const text of [TEXT.appointmentName, TEXT.appointmentReason, TEXT.phone]) await shows(appointments, text);
    // A phone number that starts with "javascript:" is still a tel: link.
    expect(await appointments.getByRole("link", { name: TEXT.phone }).getAttribute("href")).toBe(`tel:${TEXT.phone}`);
    await expectInert();
  });

  it("refuses javascript: in every URL field and in returnTo", async () => {
    const hostileUrl = "javascript:window.__xss=1";
    const refused = async (api: APIRequestContext, method: "PUT" | "PATCH" | "POST", path: string, data: unknown) => {
      const res = await api.fetch(path, { method, data });
      expect(res.status(), `${method} ${path}`).toBe(400);
    };
    await refused(trudy.api, "PUT", "/api/provider/set-id-document", { idDocumentURL: hostileUrl });
    await refused(trudy.api, "PUT", "/api/provider/set-profile-photo", { profilePhotoURL: hostileUrl });
    await refused(trudy.api, "PATCH", "/api/provider/profile", { profilePhotoUrl: hostileUrl });
    const applicant = await register({ email: "javier@example.test", firstName: "Javier", lastName: "Script" });
    await refused(applicant.api, "POST", "/api/provider/apply", {
      fullName: "Javier Script",
      email: applicant.email,
      phone: "4105550111",
      address: "1 Main St",
      city: "Annapolis",
      state: "MD",
      zipCode: "21401",
      serviceTypes: ["errands"],
      idDocumentUrl: hostileUrl,
      profilePhotoUrl: hostileUrl,
      bio: "Hello",
      agreeTerms: true,
    });

    // Signing in with a javascript: returnTo lands on the home page and runs nothing.
    await page.goto("about:blank");
    await context.clearCookies();
    await page.goto(`${server.url}/sign-in?returnTo=${encodeURIComponent(hostileUrl)}`);
    await page.getByLabel("Email").fill(DEMO.poster);
    await page.getByLabel(/^Password/).fill(DEMO.password);
    await page.getByRole("button", { name: "Sign In", exact: true }).click();
    await page.waitForURL(`${server.url}/`);
    await page.locator("h1").first().waitFor({ state: "visible" });
    await expectInert();
    await page.goto(`${server.url}/api/login?returnTo=${encodeURIComponent(hostileUrl)}`);
    await page.waitForURL(/\/sign-in\?returnTo=%2F$/);
    await expectInert();
  });

  it("CSP blocks inline script, inline handlers and javascript: links even when they reach the DOM", async () => {
    await visit(mallory, `/task/${t1}`);
    const response = await page.request.get(`${server.url}/task/${t1}`);
    const csp = response.headers()["content-security-policy"] ?? "";
    const scriptSrc = csp.split(";").find((d) => d.trim().startsWith("script-src")) ?? "";
    expect(scriptSrc.trim()).toMatch(/^script-src 'self'/);
    expect(scriptSrc).not.toMatch(/unsafe-inline|unsafe-eval|nonce-|sha256-/);

    // Injected the way a rendering bug would: markup from a string, a script element, a link. Each
    // vector writes its own marker, and each is shown inert by its own effect, not by how many
    // reports a browser version sends (Chromium 150 sent three for these four).
    const markers = () => page.evaluate(() => (window as unknown as { __xssBy?: Record<string, true> }).__xssBy ?? {});
    const violations = () => page.evaluate(() => (window as unknown as { __cspViolations: string[] }).__cspViolations);
    const directives = async () => new Set((await violations()).map((v) => v.split(" ")[0]));

    // Inline <script>: an inline script runs synchronously as it is inserted, so its marker would be set
    // by the time append() returns.
    const scriptRan = await page.evaluate(() => {
      const script = document.createElement("script");
      script.textContent = "(window.__xssBy = window.__xssBy || {}).script = true";
      document.body.append(script);
      return Boolean((window as unknown as { __xssBy?: Record<string, true> }).__xssBy?.script);
    });
    expect(scriptRan, "inline <script> ran").toBe(false);

    // onerror and onload: our own listener (added by script, which CSP allows) proves the event fired;
    // the attribute handler, which would have run before it, must not have.
    const fired = await page.evaluate(async () => {
      const box = document.createElement("div");
      box.innerHTML =
        `<img id="xss-error" src="/no-such-image-${Date.now()}.png" onerror="(window.__xssBy = window.__xssBy || {}).onerror = true">` +
        `<img id="xss-load" src="/favicon.svg" onload="(window.__xssBy = window.__xssBy || {}).onload = true">`;
      const event = (id: string, type: string) =>
        new Promise<string>((resolve) => document.getElementById(id)?.addEventListener(type, () => resolve(type), { once: true }));
      document.body.append(box);
      return Promise.all([event("xss-error", "error"), event("xss-load", "load")]);
    });
    expect(fired).toEqual(["error", "load"]);
    expect(await markers(), "inline event handlers ran").toEqual({});
    await expect.poll(async () => (await directives()).has("script-src-attr"), POLL).toBe(true);

    // javascript: link: the browser checks it against script-src-elem when the click navigates. That
    // report is the sign the navigation was attempted; after it, the marker must still be unset.
    await page.evaluate(() => {
      const link = document.createElement("a");
      link.id = "xss-link";
      link.href = "javascript:(window.__xssBy = window.__xssBy || {}).link = true";
      link.textContent = "go";
      document.body.append(link);
    });
    const elemReportsBefore = (await violations()).filter((v) => v.startsWith("script-src-elem")).length;
    await page.locator("#xss-link").click();
    await expect
      .poll(async () => (await violations()).filter((v) => v.startsWith("script-src-elem")).length, POLL)
      .toBeGreaterThan(elemReportsBefore);
    expect(await markers(), "javascript: link ran").toEqual({});
    expect(await page.evaluate(() => (window as unknown as { __xss?: unknown }).__xss)).toBeUndefined();
    expect(dialogs).toEqual([]);

    // The browser logs each blocked attempt; anything else would be a problem. The 401/404 are the
    // signed-out user call and the dashboard's provider-profile call of a user who is not a provider.
    page.assertClean([/401 \(Unauthorized\)/, /404 \(Not Found\)/, /Content Security Policy/]);
  });
});
