import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { computePricing } from "../../../shared/felix-pricing.js";
import { estimateWork } from "../../../shared/felix-work.js";
import { call, createUser, useTestApp, type TestUser } from "../../../../test/create-test-app.js";

// Felix with a language model and a routing service, both local fake servers of their protocols.

interface Seen {
  path: string;
  authorization: string | undefined;
  body: { model?: string; messages?: { role: string; content: string }[] };
}

let llmAnswer: (res: ServerResponse) => void = () => undefined;
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
  llmSeen.push({ path: req.url ?? "", authorization: req.headers.authorization, body: JSON.parse(body) as Seen["body"] });
  llmAnswer(res);
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
  category: "delivery",
  startLocation: "1 Main St, Annapolis, MD",
  startLat: 38.9784,
  startLon: -76.4922,
  endLocation: "2 Charles St, Baltimore, MD",
  endLat: 39.2904,
  endLon: -76.6122,
};
// The routing service's 25 miles: $14.50 mileage + (0.5 h driving + a delivery's usual hour) × $25 = $52 -> $50.
const expected = computePricing({ miles: 25, stops: 0, urgency: "standard", work: estimateWork({ category: "delivery" }) });
const builtIn =
  "For this Delivery Services task (about 25 miles) I suggest a budget of $50, within a range of $35 to $85. I counted 1 hour because a delivery usually takes about 1 hour; the usual rate for a delivery is $25 an hour (published cost guides). That covers $14.50 for mileage and $37.50 for the work.";

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
    expect(expected.suggestedBudget).toBe(50);
    expect(routingSeen.at(-1)).toBe("/route/v1/driving/-76.4922,38.9784;-76.6122,39.2904?overview=false");
  });
});

describe("Felix with a language model", () => {
  it("uses the model's wording when every dollar figure is the engine's, sending the key, model and facts", async () => {
    const wording = "Good news: a fair budget for this delivery is $50, which covers $14.50 of mileage and $37.50 of labor.";
    llmAnswer = (res) => json(res, 200, completion(wording));
    const res = await ask();
    expect(res.statusCode).toBe(200);
    expect(res.json().reply).toBe(wording);
    expect(res.json().suggestedBudget).toBe(50);
    const [seen] = llmSeen;
    expect(seen?.path).toBe("/v1/chat/completions");
    expect(seen?.authorization).toBe("Bearer test-key");
    expect(seen?.body.model).toBe("felix-test-model");
    expect(seen?.body.messages?.[0]?.role).toBe("system");
    expect(seen?.body.messages?.[1]?.content).toContain('"suggestedBudget":50');
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
