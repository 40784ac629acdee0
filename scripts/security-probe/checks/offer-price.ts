import { brief, type Check } from "../report.js";
import { must, type Cast, type World } from "../world.js";

// Item 9: a provider changes a $20 offer to $999 under the same id just before the poster accepts.
// Then the race itself: the edit and the accept sent at once, many times; whatever wins, the task
// must never be assigned at a price the poster did not name.

interface OfferView {
  id: string;
  price: number;
}

export async function offerPriceCheck(check: Check, world: World, cast: Cast): Promise<void> {
  const poster = cast.stranger;
  const provider = cast.provider;

  const task = await world.postTask(poster, { title: "Mow the front lawn", hiringMode: "offers", category: "other" });
  must(await provider.browser.put(`/api/tasks/${task}/offer`, { price: 20, message: "Happy to help", availability: "Sunday" }), 200, "offer $20");
  const seen = must(await poster.browser.get(`/api/tasks/${task}/offers`), 200, "the poster reads the offers").json<{ offers: OfferView[] }>().offers[0];
  if (!seen) throw new Error("the poster sees no offer");
  must(await provider.browser.put(`/api/tasks/${task}/offer`, { price: 999, message: "Happy to help", availability: "Sunday" }), 200, "switch to $999");
  const accept = await poster.browser.post(`/api/tasks/${task}/offers/${seen.id}/accept`, { price: seen.price });
  const after = await world.task(poster, task);
  check.expect(
    "accepting the $20 the poster saw, after a switch to $999, answers 409 naming the new price",
    accept.status === 409 && /999/.test(accept.text) && after.status === "open" && after.providerId === null,
    `${brief(accept.status, accept.text)}; task ${String(after.status)}, budget ${String(after.budget)}`,
  );
  // A provider holds at most ten open offers: each one left open is withdrawn.
  await provider.browser.delete(`/api/tasks/${task}/offer`);

  // The race: each round a fresh task, the offer at $25, then the switch to $900 and the accept of $25 sent together.
  const rounds = 8;
  const wrong: string[] = [];
  const outcomes = new Map<string, number>();
  for (let round = 0; round < rounds; round += 1) {
    const raced = await world.postTask(poster, { title: `Rake the leaves, part ${"ABCDEFGH"[round]}`, hiringMode: "offers", category: "other" });
    must(await provider.browser.put(`/api/tasks/${raced}/offer`, { price: 25, message: "Sure", availability: "Monday" }), 200, "offer $25");
    const offer = must(await poster.browser.get(`/api/tasks/${raced}/offers`), 200, "offers").json<{ offers: OfferView[] }>().offers[0];
    if (!offer) throw new Error("no offer to race");
    const [edit, take] = await Promise.all([
      provider.browser.put(`/api/tasks/${raced}/offer`, { price: 900, message: "Sure", availability: "Monday" }),
      poster.browser.post(`/api/tasks/${raced}/offers/${offer.id}/accept`, { price: 25 }),
    ]);
    const state = await world.task(poster, raced);
    const key = `edit ${edit.status}/accept ${take.status}`;
    outcomes.set(key, (outcomes.get(key) ?? 0) + 1);
    if (take.status === 200 && state.budget !== 25) wrong.push(`round ${round}: accepted at $25, task budget $${String(state.budget)}`);
    if (take.status !== 200 && state.providerId !== null) wrong.push(`round ${round}: accept refused, yet a provider is assigned`);
    if (take.status >= 500 || edit.status >= 500) wrong.push(`round ${round}: ${key}`);
    if (take.status !== 200) await provider.browser.delete(`/api/tasks/${raced}/offer`);
  }
  check.expect(
    `the switch and the accept sent together (${rounds} rounds): never assigned at another price`,
    wrong.length === 0,
    `${[...outcomes].map(([k, n]) => `${n}× ${k}`).join(", ")}${wrong.length ? `; ${wrong.join("; ")}` : ""}`,
  );
}
