import { randomBytes } from "node:crypto";
import { generateSync } from "otplib";
import { SoftwarePasskey } from "../../test/fakes/software-passkey.js";
import { tinyPdf, tinyPng } from "../../test/fixtures/test-files.js";
import { Browser, type Answer } from "./http.js";
import { waitForToken, type Launched } from "./server.js";

// The people and things the probe attacks, made the way people make them: through the API of the
// running server, with the links its development log shows. Nothing is written to the database.

export const PASSWORD = "copper lantern meadow orbit";
const CARD = { cardNumber: "4242 4242 4242 4242", expMonth: 12, expYear: 2030, cvc: "123" };

/** The demo logins the server printed at its start (they are published; decision 066). */
export interface DemoLogins {
  password: string;
  adminTotpKey: string;
}

export function demoLoginsFrom(output: string): DemoLogins {
  const password = /password for all: (\S+)\)/.exec(output)?.[1];
  const adminTotpKey = /add the key (\S+) to an authenticator app/.exec(output)?.[1];
  if (!password || !adminTotpKey) throw new Error("the start-up output names no demo logins");
  return { password, adminTotpKey };
}

export class ApiError extends Error {}

/** The answer when it has `status`; otherwise an error naming the step. */
export function must(answer: Answer, status: number, what: string): Answer {
  if (answer.status !== status) throw new ApiError(`${what}: expected ${status}, got ${answer.status} ${answer.text.slice(0, 300)}`);
  return answer;
}

export interface Person {
  id: string;
  email: string;
  browser: Browser;
  password: string;
}

/** The secret things of the victim's, which nobody but the victim, their provider and a two-factor admin may read. */
export interface Canary {
  label: string;
  value: string;
}

export class World {
  readonly base: string;
  readonly origin: string;
  readonly demo: DemoLogins;
  private nextHost = 10;
  private readonly lastTotpStep = new Map<string, number>();
  readonly run = randomBytes(3).toString("hex");

  constructor(readonly server: Launched) {
    this.base = server.url;
    this.origin = `http://localhost:${server.port}`;
    this.demo = demoLoginsFrom(server.output());
  }

  /** A loopback address no other actor uses (127.0.0.10 upwards; 127.0.1.x and up are the slow-connection check's). */
  address(): string {
    this.nextHost += 1;
    if (this.nextHost > 250) throw new Error("out of loopback addresses");
    return `127.0.0.${this.nextHost}`;
  }

  browser(localAddress = this.address()): Browser {
    return new Browser(this.base, this.origin, localAddress);
  }

  email(name: string): string {
    return `${name}-${this.run}@probe.test`;
  }

  /** A code of the authenticator app with `secret` the server has not seen yet (one step ahead at most). */
  async totpCode(secret: string): Promise<string> {
    for (;;) {
      const now = Math.floor(Date.now() / 1000);
      const step = Math.floor(now / 30);
      const last = this.lastTotpStep.get(secret) ?? -1;
      const use = Math.max(step, last + 1);
      if (use <= step + 1) {
        this.lastTotpStep.set(secret, use);
        return generateSync({ secret, epoch: use * 30 });
      }
      await new Promise((r) => setTimeout(r, (step + 1) * 30_000 - Date.now() + 50));
    }
  }

  /** Registers `email` and follows its link in the same browser: a verified, signed-in person. */
  async register(name: string, first: string, last: string, options: { email?: string; browser?: Browser; verify?: boolean } = {}): Promise<Person> {
    const email = options.email ?? this.email(name);
    const browser = options.browser ?? this.browser();
    must(await browser.post("/api/auth/register", { email, password: PASSWORD, firstName: first, lastName: last }), 202, `register ${email}`);
    if (options.verify !== false) {
      const token = await waitForToken(this.server, email, "/verify-email");
      must(await browser.post("/api/auth/verify-email", { token }), 200, `verify ${email}`);
    } else {
      must(await browser.post("/api/auth/login", { email, password: PASSWORD }), 200, `sign in ${email} unverified`);
    }
    const me = must(await browser.get("/api/auth/user"), 200, `who is ${email}`).json<{ id: string }>();
    return { id: me.id, email, browser, password: PASSWORD };
  }

  /** Signs in with the password, and the authenticator app when the server asks for it. */
  async signIn(email: string, password: string, options: { totpSecret?: string; browser?: Browser } = {}): Promise<Person> {
    const browser = options.browser ?? this.browser();
    const first = await browser.post("/api/auth/login", { email, password });
    if (first.status === 202) {
      if (!options.totpSecret) throw new ApiError(`sign in ${email}: a second factor is asked for and none was given`);
      must(await browser.post("/api/auth/second-factor", { code: await this.totpCode(options.totpSecret) }), 200, `second step of ${email}`);
    } else {
      must(first, 200, `sign in ${email}`);
    }
    const me = must(await browser.get("/api/auth/user"), 200, `who is ${email}`).json<{ id: string }>();
    return { id: me.id, email, browser, password };
  }

  /** An upload of `kind` made and set as that kind's file: its /objects/{id} path. */
  async upload(person: Person, kind: "id_document" | "profile_photo" | "dispute_photo", setAs?: "id_document" | "profile_photo"): Promise<string> {
    const url = must(await person.browser.post("/api/objects/upload", { kind }), 200, `upload ${kind}`).json<{ uploadURL: string }>().uploadURL;
    const file = kind === "id_document" ? tinyPdf() : tinyPng();
    const put = must(await person.browser.put(url, undefined, { body: file, contentType: kind === "id_document" ? "application/pdf" : "image/png" }), 200, `put ${kind}`);
    if (!setAs) return url;
    const set =
      setAs === "id_document"
        ? await person.browser.put("/api/provider/set-id-document", { idDocumentURL: url })
        : await person.browser.put("/api/provider/set-profile-photo", { profilePhotoURL: url });
    void put;
    return must(set, 200, `set ${setAs}`).json<{ objectPath: string }>().objectPath;
  }

  /** A verified person who applied, got a clear check and was approved by `admin`. */
  async provider(name: string, first: string, last: string, admin: Person, details: { phone: string; address: string }): Promise<Person & { idDocument: string }> {
    const person = await this.register(name, first, last);
    const idDocument = await this.upload(person, "id_document", "id_document");
    const photo = await this.upload(person, "profile_photo", "profile_photo");
    must(
      await person.browser.post("/api/provider/apply", {
        fullName: `${first} ${last}`,
        email: person.email,
        phone: details.phone,
        address: details.address,
        city: "Annapolis",
        state: "MD",
        zipCode: "21401",
        serviceTypes: ["errands", "delivery", "pet", "shopping", "cleaning", "moving", "business", "other"],
        idDocumentUrl: idDocument,
        profilePhotoUrl: photo,
        availability: { monday: true, saturday: true },
        bio: "Careful and on time.",
        agreeTerms: true,
      }),
      201,
      `apply as ${person.email}`,
    );
    const today = new Date().toISOString().slice(0, 10);
    must(
      await admin.browser.post(`/api/admin/providers/${person.id}/background-checks`, { checkedWhat: "County criminal records, MD, 7 years", result: "clear", checkedOn: today }),
      201,
      "record a clear check",
    );
    must(await admin.browser.post(`/api/admin/applications/${person.id}/approve`), 200, "approve the application");
    return { ...person, idDocument };
  }

  /** Posts a task: its id. */
  async postTask(poster: Person, body: Record<string, unknown>): Promise<string> {
    const res = must(
      await poster.browser.post("/api/tasks", {
        title: "Pick up a parcel",
        description: "From the post office on Main St",
        category: "errands",
        budget: 50,
        location: "1 Main St",
        city: "Annapolis",
        state: "MD",
        ...body,
      }),
      201,
      `post a task as ${poster.email}`,
    );
    return res.json<{ id: string }>().id;
  }

  async task(person: Person, id: string): Promise<Record<string, unknown>> {
    return must(await person.browser.get(`/api/tasks/${id}`), 200, `read task ${id}`).json();
  }

  async move(person: Person, taskId: string, transition: string): Promise<void> {
    must(await person.browser.patch(`/api/tasks/${taskId}/${transition}`), 200, `${transition} task ${taskId}`);
  }

  /** The poster pays the claimed task with the sandbox's good card. */
  async pay(poster: Person, taskId: string): Promise<void> {
    const task = await this.task(poster, taskId);
    const intent = must(await poster.browser.post("/api/create-payment-intent", { taskId, amount: task.totalAmount }), 200, "create a payment intent");
    must(await poster.browser.post("/api/sandbox/payments/confirm", { clientSecret: intent.json<{ clientSecret: string }>().clientSecret, ...CARD }), 200, "confirm the sandbox payment");
  }

  /** An authenticator app added and confirmed: its key and the recovery codes. */
  async enrolTotp(person: Person): Promise<{ secret: string; recoveryCodes: string[] }> {
    const setup = must(await person.browser.post("/api/account/security/totp"), 200, "start an authenticator app").json<{ secret: string }>();
    const confirmed = must(await person.browser.post("/api/account/security/totp/confirm", { code: await this.totpCode(setup.secret) }), 200, "confirm the app");
    return { secret: setup.secret, recoveryCodes: confirmed.json<{ recoveryCodes: string[] | null }>().recoveryCodes ?? [] };
  }

  /** A software passkey registered on the account: the key and the server's id for it. */
  async addPasskey(person: Person, key = new SoftwarePasskey(this.origin), flags?: number): Promise<{ key: SoftwarePasskey; answer: Answer }> {
    const options = must(await person.browser.post("/api/account/security/passkeys/options"), 200, "passkey options");
    const answer = await person.browser.post("/api/account/security/passkeys", { name: "Probe key", response: key.register(options.json() as { challenge: string }, flags) });
    return { key, answer };
  }
}

/** The cast and the victim's private things, made once for the checks and the sweep. */
export interface Cast {
  /** The demo admin with its authenticator app: a two-factor session. */
  admin2: Person;
  /** An ADMIN_EMAILS address verified by its link, no factor yet: an admin on one factor. */
  admin1: Person;
  /** A signed-in person with nothing to do with the victim's. */
  stranger: Person;
  /** An approved provider who is not the victim's. */
  provider: Person & { idDocument: string };
  /** The victim: posts tasks, pays, chats, reports problems, keeps a passkey and an app. */
  victim: Person & { totpSecret: string; recoveryCodes: string[]; passkeyId: string; idDocument: string; sessionId: string };
  /** The demo provider, the victim's provider: asked the question the victim hid. */
  devon: Person;
  /** The demo poster: posts the masking tasks; the victim reports her. */
  paula: Person;
  ids: {
    /** The victim's disputed task ($150, so its escrow is held): address, chat, escrow, dispute, a photo, a receipt, a hidden question. */
    disputed: string;
    /** The victim's released and reviewed task (a blind review on it). */
    released: string;
    /** The victim's task that takes offers, with Devon's offer on it. */
    offers: string;
    offer: string;
    hiddenQuestion: string;
    disputePhoto: string;
    receipt: string;
    review: string;
    report: string;
  };
  canaries: Canary[];
}

/** Hostile spreadsheet cells in task titles (item 11): each starts a formula in a spreadsheet set to some separator. */
export const CSV_TITLES = {
  disputed: "=cmd|' /C calc'!A0 parcel",
  released: "Parcel;=1+1,@SUM(1+1)\t-2+3;+4 pickup",
};

export async function buildCast(world: World, admin1Email: string): Promise<Cast> {
  const admin2 = await world.signIn("admin@errandly.test", world.demo.password, { totpSecret: world.demo.adminTotpKey });
  const devon = await world.signIn("provider@errandly.test", world.demo.password);
  const paula = await world.signIn("poster@errandly.test", world.demo.password);
  const admin1 = await world.register("admin1", "Oneta", "Factor", { email: admin1Email });
  const stranger = await world.register("stranger", "Stan", "Ranger");
  const provider = await world.provider("provider", "Prue", "Vider", admin2, { phone: "(443) 555-0161", address: "9 Probe Row" });

  const victimPerson = await world.register("victim", "Vera", "Zebulonsky");
  const idDocument = await world.upload(victimPerson, "id_document", "id_document");
  const { secret: totpSecret, recoveryCodes } = await world.enrolTotp(victimPerson);
  const passkey = await world.addPasskey(victimPerson);
  const passkeyId = must(passkey.answer, 201, "add the victim's passkey").json<{ id: string }>().id;
  const sessions = must(await victimPerson.browser.get("/api/account/sessions"), 200, "the victim's sessions").json<{ id: string; current: boolean }[]>();
  const sessionId = sessions.find((s) => s.current)?.id ?? "";
  const victim = { ...victimPerson, totpSecret, recoveryCodes, passkeyId, idDocument, sessionId };

  const street = "4471 Canarywood Ct";
  const disputed = await world.postTask(victim, { title: CSV_TITLES.disputed, budget: 150, location: street, lat: 38.97913, lon: -76.49017 });
  const asked = must(
    await devon.browser.post(`/api/tasks/${disputed}/questions`, { body: "Does it need a signature? hidden-question-canary-plover" }),
    201,
    "ask the victim a question",
  ).json<{ id: string }>();
  must(await victim.browser.post(`/api/tasks/${disputed}/questions/${asked.id}/hide`), 200, "hide the question");
  await world.move(devon, disputed, "claim");
  must(await victim.browser.post("/api/messages", { taskId: disputed, content: "chat-canary-kestrel, see you at the door" }), 201, "victim's chat");
  must(await devon.browser.post("/api/messages", { taskId: disputed, content: "chat-canary-lapwing, on my way" }), 201, "Devon's chat");
  await world.pay(victim, disputed);
  await world.move(devon, disputed, "start");
  await world.move(devon, disputed, "complete");
  const photoUrl = await world.upload(victim, "dispute_photo");
  must(
    await victim.browser.post(`/api/tasks/${disputed}/report-problem`, { reason: "not_done", description: "dispute-canary-heron: the parcel never arrived", photoURLs: [photoUrl] }),
    200,
    "report a problem",
  );
  must(await victim.browser.post(`/api/tasks/${disputed}/dispute/messages`, { body: "dispute-canary-egret: still nothing" }), 200, "write in the dispute");
  const dispute = must(await victim.browser.get(`/api/tasks/${disputed}/dispute`), 200, "read the dispute").json<Record<string, unknown>>();
  const disputePhoto = /"id":"([0-9a-f-]{36})","small"/.exec(JSON.stringify(dispute))?.[1] ?? "";
  const receipts = must(await victim.browser.get("/api/receipts"), 200, "the victim's receipts").json<unknown>();
  const receipt = /"id":"([0-9a-f-]{36})"/.exec(JSON.stringify(receipts))?.[1] ?? "";

  const released = await world.postTask(victim, { title: CSV_TITLES.released, location: street });
  await world.move(devon, released, "claim");
  await world.pay(victim, released);
  await world.move(devon, released, "start");
  await world.move(devon, released, "complete");
  // Under $100 the payment is released on completion (docs/product.md, Money).
  const review = must(
    await victim.browser.post("/api/reviews", { taskId: released, reviewedId: devon.id, rating: 4, comment: "review-canary-curlew: fine work" }),
    201,
    "review Devon",
  ).json<{ id: string }>();

  const offers = await world.postTask(victim, { title: "Walk the dog twice", hiringMode: "offers", location: street });
  const offer = must(
    await devon.browser.put(`/api/tasks/${offers}/offer`, { price: 45, message: "offer-canary-avocet, I know the area", availability: "Saturday" }),
    200,
    "Devon's offer",
  ).json<{ id: string }>();

  const report = must(
    await victim.browser.post("/api/reports", { targetType: "user", targetId: paula.id, reason: "spam", details: "report-canary-godwit about this person" }),
    201,
    "the victim's report",
  ).json<{ id: string }>();
  must(
    await world.browser().post("/api/contact", { name: "Cora Canary", email: "contact-canary@probe.test", subject: "Hello", message: "contact-canary-sanderling message" }),
    201,
    "a contact message",
  );

  const canaries: Canary[] = [
    { label: "victim's e-mail", value: victim.email },
    { label: "victim's last name", value: "Zebulonsky" },
    { label: "victim's street address", value: street },
    { label: "victim's exact latitude", value: "38.97913" },
    { label: "chat (victim)", value: "chat-canary-kestrel" },
    { label: "chat (provider)", value: "chat-canary-lapwing" },
    { label: "dispute reason", value: "dispute-canary-heron" },
    { label: "dispute message", value: "dispute-canary-egret" },
    { label: "hidden question", value: "hidden-question-canary-plover" },
    { label: "blind review", value: "review-canary-curlew" },
    { label: "offer message", value: "offer-canary-avocet" },
    { label: "report details", value: "report-canary-godwit" },
    { label: "contact message", value: "contact-canary-sanderling" },
    { label: "victim's ID document path", value: idDocument.replace("/objects/", "") },
    { label: "victim's session token", value: victim.browser.sessionToken ?? "(none)" },
    { label: "victim's authenticator key", value: totpSecret },
    ...recoveryCodes.slice(0, 3).map((code, i) => ({ label: `victim's recovery code ${i + 1}`, value: code })),
    { label: "Devon's e-mail", value: "provider@errandly.test" },
    { label: "Devon's phone", value: "555-0188" },
    { label: "Devon's home address", value: "200 Duke of Gloucester St" },
    { label: "a password hash", value: "scrypt$" },
  ];
  return {
    admin2,
    admin1,
    stranger,
    provider,
    victim,
    devon,
    paula,
    ids: { disputed, released, offers, offer: offer.id, hiddenQuestion: asked.id, disputePhoto, receipt, review: review.id, report: report.id },
    canaries,
  };
}

/** The canaries `text` holds. */
export function canariesIn(text: string, canaries: Canary[]): string[] {
  return canaries.filter((c) => c.value.length >= 6 && text.includes(c.value)).map((c) => c.label);
}
