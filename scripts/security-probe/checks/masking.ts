import type { Browser } from "../http.js";
import type { Check } from "../report.js";
import { must, type Cast, type Person, type World } from "../world.js";

// Item 7: contact details written to get round the masking, in every text the other side reads
// before a task is paid (task titles and descriptions, public questions and answers, offers, the
// unpaid chat), then read back where others read them: the public task page and API as a visitor,
// the offers as the poster, the chat as the other party.

interface Bypass {
  text: string;
  /** What must not survive: digits of a phone number, or a word of a link or address. */
  digits?: string;
  word?: string;
}

/** The issue's list, one each. */
const BYPASSES: Bypass[] = [
  { text: "410  555  1234", digits: "4105551234" },
  { text: "４１０５５５１２３４", digits: "4105551234" },
  { text: "4\u200b1\u200b0\u200b5\u200b5\u200b5\u200b1\u200b2\u200b3\u200b4", digits: "4105551234" },
  { text: "four one zero five five five one two three four", digits: "4105551234" },
  { text: "sam at gmail", word: "gmail" },
  { text: "t.me/sammy", word: "sammy" },
  { text: "wa.me/14105551234", word: "wa.me" },
  { text: "discord.gg/sammyplace", word: "discord" },
  { text: "evil dot com", word: "evil" },
  { text: "hxxp://evilsite.net/deal", word: "evilsite" },
  { text: "sam＠gmail.com", word: "gmail" },
];

const NUMBER_WORDS: Record<string, string> = { zero: "0", oh: "0", one: "1", two: "2", three: "3", four: "4", five: "5", six: "6", seven: "7", eight: "8", nine: "9" };

/** The text as a reader's eye takes it: compatibility forms folded, invisible characters gone, number words as digits. */
function asRead(text: string): string {
  return text
    .normalize("NFKC")
    .replace(/[\p{Cf}\p{Default_Ignorable_Code_Point}]/gu, "")
    .toLowerCase()
    .replace(/\b(zero|oh|one|two|three|four|five|six|seven|eight|nine)\b/g, (w) => NUMBER_WORDS[w] ?? w);
}

/** Why `text` still gives the detail away, or null. Surrounding words carry no digits of their own. */
function stillThere(bypass: Bypass, text: string): string | null {
  const read = asRead(text);
  if (bypass.digits && read.replace(/\D/g, "").includes(bypass.digits)) return `the number ${bypass.digits} is readable`;
  if (bypass.word && read.includes(bypass.word)) return `"${bypass.word}" is readable`;
  return null;
}

function show(text: string): string {
  return JSON.stringify(text).slice(1, -1);
}

interface Reading {
  where: string;
  /** The texts read back, in order of the bypasses. */
  texts: (string | null)[];
}

/** One verdict per place: every bypass hidden where it was written. */
function judge(check: Check, place: string, reading: Reading, indexes: number[]): void {
  const leaks: string[] = [];
  const missing: number[] = [];
  indexes.forEach((bypassIndex, i) => {
    const bypass = BYPASSES[bypassIndex];
    const text = reading.texts[i];
    if (!bypass) return;
    if (text === null || text === undefined) missing.push(bypassIndex);
    else {
      const why = stillThere(bypass, text);
      if (why) leaks.push(`"${show(bypass.text)}" → "${show(text).slice(0, 60)}" (${why})`);
    }
  });
  check.expect(
    `${place}, read ${reading.where}`,
    leaks.length === 0 && missing.length === 0,
    leaks.length + missing.length === 0
      ? `all ${indexes.length} hidden`
      : `${leaks.length} of ${indexes.length} readable${missing.length ? `, ${missing.length} not found` : ""}: ${leaks.slice(0, 4).join("; ")}${leaks.length > 4 ? "; …" : ""}`,
  );
}

export async function maskingCheck(check: Check, world: World, cast: Cast): Promise<void> {
  const visitor = world.browser();
  const posters: Person[] = [cast.paula, cast.victim];
  const providers: Person[] = [cast.provider, cast.devon];
  const tasks: { id: string; poster: Person; provider: Person; index: number }[] = [];
  for (const [index, bypass] of BYPASSES.entries()) {
    const poster = posters[index % 2] as Person;
    const id = await world.postTask(poster, {
      title: `Errand: ${bypass.text} please`,
      description: `Details: ${bypass.text} and thanks`,
      hiringMode: "offers",
      category: "other",
    });
    tasks.push({ id, poster, provider: providers[index % 2] as Person, index });
  }
  const all = tasks.map((t) => t.index);

  // Titles and descriptions: the public API and the server-rendered page, as a signed-out visitor.
  const details = await Promise.all(tasks.map(async (t) => (await visitor.get(`/api/tasks/${t.id}`)).json<{ title: string; description: string }>()));
  judge(check, "task titles", { where: "by a visitor from /api/tasks/{id}", texts: details.map((d) => d.title) }, all);
  judge(check, "task descriptions", { where: "by a visitor from /api/tasks/{id}", texts: details.map((d) => d.description) }, all);
  const pages = await Promise.all(tasks.map(async (t) => (await visitor.get(`/task/${t.id}`, { headers: { accept: "text/html" } })).text));
  judge(check, "task titles and descriptions", { where: "by a visitor on the server-rendered /task/{id} page", texts: pages }, all);

  // Public questions (asked by providers) and the posters' answers.
  const questionIds: string[] = [];
  for (const t of tasks) {
    const bypass = BYPASSES[t.index] as Bypass;
    const asked = must(await t.provider.browser.post(`/api/tasks/${t.id}/questions`, { body: `Question: ${bypass.text} is that fine?` }), 201, "ask a question");
    questionIds.push(asked.json<{ id: string }>().id);
  }
  for (const [i, t] of tasks.entries()) {
    const bypass = BYPASSES[t.index] as Bypass;
    must(await t.poster.browser.post(`/api/tasks/${t.id}/questions/${questionIds[i]}/answer`, { answer: `Answer: ${bypass.text} works` }), 200, "answer a question");
  }
  const questions = await Promise.all(
    tasks.map(async (t) => (await visitor.get(`/api/tasks/${t.id}/questions`)).json<{ questions: { body: string; answer: string | null }[] }>().questions[0] ?? null),
  );
  judge(check, "public questions", { where: "by a visitor from /api/tasks/{id}/questions", texts: questions.map((q) => q?.body ?? null) }, all);
  judge(check, "public answers", { where: "by a visitor from /api/tasks/{id}/questions", texts: questions.map((q) => q?.answer ?? null) }, all);

  // Offers: the message and the time, read by the poster.
  for (const t of tasks) {
    const bypass = BYPASSES[t.index] as Bypass;
    const next = BYPASSES[(t.index + 1) % BYPASSES.length] as Bypass;
    must(await t.provider.browser.put(`/api/tasks/${t.id}/offer`, { price: 40, message: `Offer: ${bypass.text} call me`, availability: `Any day, ${next.text}` }), 200, "make an offer");
  }
  const offers = await Promise.all(
    tasks.map(async (t) => (await t.poster.browser.get(`/api/tasks/${t.id}/offers`)).json<{ offers: { id: string; message: string; availability: string; price: number }[] }>().offers[0] ?? null),
  );
  judge(check, "offer messages", { where: "by the poster", texts: offers.map((o) => o?.message ?? null) }, all);
  judge(check, "offer times", { where: "by the poster", texts: offers.map((o) => o?.availability ?? null) }, all.map((i) => (i + 1) % BYPASSES.length));

  // The chat before payment: the poster accepts the first task's offer (assigned, not paid).
  const first = tasks[0];
  const firstOffer = offers[0];
  if (!first || !firstOffer) throw new Error("no first offer");
  must(await first.poster.browser.post(`/api/tasks/${first.id}/offers/${firstOffer.id}/accept`, { price: firstOffer.price }), 200, "accept the first offer");
  // Each message tagged with a letter (no digit), so its answer is found whatever the order.
  const tag = (i: number) => `Chat ${String.fromCharCode(65 + i)}:`;
  for (const [i, bypass] of BYPASSES.entries()) must(await first.provider.browser.post("/api/messages", { taskId: first.id, content: `${tag(i)} ${bypass.text} text me` }), 201, "chat before payment");
  const unpaid = must(await first.poster.browser.get(`/api/messages/${first.id}`), 200, "read the chat").json<{ content: string }[]>();
  const chatTexts = all.map((i) => unpaid.find((m) => m.content.startsWith(tag(i)))?.content ?? null);
  judge(check, "chat messages before payment", { where: "by the poster from /api/messages/{taskId}", texts: chatTexts }, all);

  // After payment the two may share numbers (the control: masking follows the payment).
  await world.pay(first.poster, first.id);
  must(await first.provider.browser.post("/api/messages", { taskId: first.id, content: "Paid now: my number is 410 555 1234" }), 201, "chat after payment");
  const paid = must(await first.poster.browser.get(`/api/messages/${first.id}`), 200, "read the chat").json<{ content: string }[]>();
  const after = paid.find((m) => m.content.startsWith("Paid now"))?.content ?? "";
  check.expect("(control) once paid, the chat carries a number as written", after.includes("410 555 1234"), `read back "${after}"`);

  await beyondTheList(check, world, cast, visitor);
  visitor.close();
}

/**
 * Texts others read that the issue does not list: a provider's public bio and a person's public
 * display name (anyone), and a task's street address (its provider, once assigned, before paying).
 */
async function beyondTheList(check: Check, world: World, cast: Cast, visitor: Browser): Promise<void> {
  const phone = BYPASSES[0] as Bypass;
  must(await cast.provider.browser.patch("/api/provider/profile", { bio: `Reliable. Text me on ${phone.text} anytime` }), 200, "edit the bio");
  const profile = await visitor.get(`/api/users/${cast.provider.id}/profile`);
  const bioLeak = stillThere(phone, profile.text);
  check.note("(beyond the list) a provider's bio on their public profile", bioLeak ? `readable: ${bioLeak}` : "hidden");

  const named = await world.register("named", "Tel", "Lastname");
  must(await named.browser.patch("/api/account/profile", { firstName: "Call4105551234", lastName: "Lastname" }), 200, "rename");
  const taskOfNamed = await world.postTask(named, { title: "Water the plants" });
  const shown = await visitor.get(`/api/tasks/${taskOfNamed}`);
  const nameLeak = stillThere(phone, shown.json<{ poster: { displayName: string } }>().poster.displayName);
  check.note("(beyond the list) a first name shown as the poster's display name", nameLeak ? `readable: ${nameLeak}` : "hidden");

  const located = await world.postTask(cast.stranger, { title: "Fetch the mail", location: `12 Elm St, call ${phone.text}` });
  await world.move(cast.devon, located, "claim");
  const assigned = await world.task(cast.devon, located);
  const locationLeak = stillThere(phone, String(assigned.location ?? ""));
  check.note("(beyond the list) a task's street address, read by its provider before payment", locationLeak ? `readable: ${locationLeak}` : "hidden");
}
