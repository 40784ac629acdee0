import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { computePricing } from "../../../shared/felix-pricing.js";
import { estimateWork } from "../../../shared/felix-work.js";
import { READING_PROMPT } from "../../adapters/felix-phrasing/create-phraser.js";
import { call, createUser, useTestApp, type TestUser } from "../../../../test/create-test-app.js";

// Felix with a language model and a routing service, both local fake servers of their protocols.

interface Seen {
  path: string;
  authorization: string | undefined;
  body: { model?: string; messages?: { role: string; content: string }[] };
}

let llmAnswer: (res: ServerResponse) => void = () => undefined;
/** How the fake answers a request to read a task's hours (the other requests go to llmAnswer). */
let readingAnswer: (res: ServerResponse) => void = () => undefined;
const llmSeen: Seen[] = [];
const routingSeen: string[] = [];

async function listen(handler: (req: IncomingMessage, res: ServerResponse, body: string) => void): Promise<string> {
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString()));
    req.on("end", () => handler(req, res, body));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  // A slow answer must not keep the server from closing.
  afterAll(() => server.closeAllConnections());
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const json = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
};
const completion = (content: string) => ({ choices: [{ index: 0, message: { role: "assistant", content } }] });

const llmUrl = await listen((req, res, body) => {
  const seen = { path: req.url ?? "", authorization: req.headers.authorization, body: JSON.parse(body) as Seen["body"] };
  llmSeen.push(seen);
  if (seen.body.messages?.[0]?.content === READING_PROMPT) readingAnswer(res);
  else llmAnswer(res);
});
// 25 miles of road between the two points, whatever the straight line says.
const ROAD_METERS = 25 * 1609.344;
const routingUrl = await listen((req, res) => {
  routingSeen.push(req.url ?? "");
  json(res, 200, { code: "Ok", routes: [{ distance: ROAD_METERS, duration: 1800 }] });
});

const t = await useTestApp({
  FELIX_LLM_URL: `${llmUrl}/v1`,
  FELIX_LLM_MODEL: "felix-test-model",
  FELIX_LLM_API_KEY: "test-key",
  // The default timeout: no case here waits for it (phraser.test.ts runs the timeout on virtual time).
  ROUTING_URL: routingUrl,
});

const context = {
  category: "errands",
  startLocation: "1 Main St, Annapolis, MD",
  startLat: 38.9784,
  startLon: -76.4922,
  endLocation: "2 Charles St, Baltimore, MD",
  endLat: 39.2904,
  endLon: -76.6122,
};
// The routing service's 25 miles: $14.50 mileage + (0.5 h driving + an errand's usual hour) × $30 = $59.50 -> $60.
const expected = computePricing({ miles: 25, stops: 0, urgency: "standard", work: estimateWork({ category: "errands" }) });
const builtIn =
  "For this Personal Errands task (about 25 miles) I suggest a budget of $60, within a range of $35 to $100. I counted 1 hour because an errand usually takes about 1 hour; the usual rate for an errand is $30 an hour (published cost guides). That covers $14.50 for mileage and $45 for the work.";

let user: TestUser;
beforeEach(async () => {
  user = await createUser(t);
  llmSeen.length = 0;
});
const ask = () =>
  call(t, user, { method: "POST", url: "/api/ask-felix", payload: { message: "Please calculate the budget for this task.", context, mode: "recommend" } });

describe("Felix with a routing service", () => {
  it("prices the driving distance the service measured", async () => {
    llmAnswer = (res) => json(res, 500, { error: "down" });
    const res = await ask();
    expect(res.json().pricingBreakdown).toEqual(expected);
    expect(expected.suggestedBudget).toBe(60);
    expect(routingSeen.at(-1)).toBe("/route/v1/driving/-76.4922,38.9784;-76.6122,39.2904?overview=false");
  });
});

describe("Felix with a language model", () => {
  it("uses the model's wording when every dollar figure is the engine's, sending the key, model and facts", async () => {
    const wording = "Good news: a fair budget for this delivery is $60, which covers $14.50 of mileage and $45 of labor.";
    llmAnswer = (res) => json(res, 200, completion(wording));
    const res = await ask();
    expect(res.statusCode).toBe(200);
    expect(res.json().reply).toBe(wording);
    expect(res.json().suggestedBudget).toBe(60);
    const [seen] = llmSeen;
    expect(seen?.path).toBe("/v1/chat/completions");
    expect(seen?.authorization).toBe("Bearer test-key");
    expect(seen?.body.model).toBe("felix-test-model");
    expect(seen?.body.messages?.[0]?.role).toBe("system");
    expect(seen?.body.messages?.[1]?.content).toContain('"suggestedBudget":60');
  });

  it("falls back to the built-in answer when the model invents a figure", async () => {
    llmAnswer = (res) => json(res, 200, completion("I would offer $42 for this delivery."));
    const res = await ask();
    expect(res.json().reply).toBe(builtIn);
    expect(llmSeen).toHaveLength(1);
  });

  it("falls back when the model answers 500", async () => {
    llmAnswer = (res) => json(res, 500, { error: { message: "overloaded" } });
    expect((await ask()).json().reply).toBe(builtIn);
  });

  it("falls back when the model drops the connection without answering", async () => {
    llmAnswer = (res) => res.destroy();
    expect((await ask()).json().reply).toBe(builtIn);
  });

  it("falls back when the answer has no content", async () => {
    llmAnswer = (res) => json(res, 200, { choices: [] });
    expect((await ask()).json().reply).toBe(builtIn);
  });
});

describe("a language model reading the hours", () => {
  // One place, no route: the price is the work alone. The built-in reader finds no size in this text.
  const vague = { category: "general", title: "Clear out the garage", description: "Everything goes to the curb for bulk pickup.", location: "1 Main St, Annapolis, MD", lat: 38.9784, lon: -76.4922 };
  const askAbout = (taskContext: Record<string, unknown>) =>
    call(t, user, { method: "POST", url: "/api/ask-felix", payload: { message: "Please calculate the budget for this task.", context: taskContext, mode: "recommend" } });
  const readings = () => llmSeen.filter((seen) => seen.body.messages?.[0]?.content === READING_PROMPT);
  const builtInWork = estimateWork({ category: "general", title: vague.title, description: vague.description });

  beforeEach(() => {
    llmAnswer = (res) => json(res, 500, { error: "wording not under test" });
  });

  it("prices the hours the model read when the built-in reader read none, and says so", async () => {
    readingAnswer = (res) => json(res, 200, completion('```json\n{"hours": 5, "low": 4, "high": 6, "what": "clear out the garage"}\n```'));
    const res = await askAbout(vague);
    const modelHours = { hours: 5, low: 4, high: 6, what: "clear out the garage" };
    const expectedPricing = computePricing({ miles: 0, stops: 0, urgency: "standard", work: estimateWork({ category: "general", title: vague.title, description: vague.description, modelHours }) });
    expect(res.statusCode).toBe(200);
    expect(res.json().pricingBreakdown).toEqual(expectedPricing);
    expect(res.json().suggestedBudget).toBeGreaterThan(computePricing({ miles: 0, stops: 0, urgency: "standard", work: builtInWork }).suggestedBudget);
    expect(res.json().work).toMatchObject({ quantityFrom: 'I read "clear out the garage" as about 5 hours', question: null });
    expect(readings()[0]?.body.messages?.[1]?.content).toBe("Clear out the garage. Everything goes to the curb for bulk pickup.");
  });

  it.each([
    ["hours outside a quarter hour to three days", '{"hours": 100, "low": 90, "high": 120, "what": "the garage"}'],
    ["a range that does not hold the figure", '{"hours": 5, "low": 6, "high": 8, "what": "the garage"}'],
    ["no figure", '{"hours": null}'],
    ["text that is not JSON", "About five hours, I think."],
  ])("keeps the built-in estimate and its question when the model answers %s", async (_case, content) => {
    readingAnswer = (res) => json(res, 200, completion(content));
    const res = await askAbout(vague);
    expect(res.statusCode).toBe(200);
    expect(res.json().pricingBreakdown).toEqual(computePricing({ miles: 0, stops: 0, urgency: "standard", work: builtInWork }));
    expect(res.json().work).toMatchObject({ quantityFrom: builtInWork.quantityFrom, question: "hours" });
    expect(readings()).toHaveLength(1);
  });

  it("keeps the built-in estimate when the model fails", async () => {
    readingAnswer = (res) => json(res, 503, { error: { message: "overloaded" } });
    const res = await askAbout(vague);
    expect(res.json().work).toMatchObject({ quantityFrom: builtInWork.quantityFrom, question: "hours" });
  });

  it("does not ask the model when the built-in reader read the hours", async () => {
    readingAnswer = (res) => json(res, 200, completion('{"hours": 9, "low": 8, "high": 10, "what": "garage"}'));
    const res = await askAbout({ ...vague, description: "Should take about 2 hours." });
    expect(res.json().work.quantityFrom).toBe("you said about 2 hours");
    expect(readings()).toHaveLength(0);
  });
});
