import { beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import type { Message } from "../../../shared/chat.js";
import { HIDDEN } from "../../contact-masking.js";
import { messages } from "../../db/schema/chat.js";
import { openSocketOrThrow } from "../../../../test/test-socket.js";
import { call, TEST_ORIGIN, useTestApp, type TestUser } from "../../../../test/create-test-app.js";
import { pay, taskAt } from "../../../../test/fixtures/factory.js";

// Contact details in the chat are masked until the task is paid (docs/decisions/070-contact-masking.md).

const t = await useTestApp();

let baseUrl = "";
beforeAll(async () => {
  baseUrl = (await t.app.listen({ port: 0, host: "127.0.0.1" })).replace("http://", "ws://");
});

const CONTACT = "Text me on ４１０ ５５５ １２３４ or sam at gmail, t.me/sammy";
const MASKED = `Text me on ${HIDDEN.phone} or ${HIDDEN.email}, ${HIDDEN.link}`;

const send = (user: TestUser, taskId: string, content: string) => call(t, user, { method: "POST", url: "/api/messages", payload: { taskId, content } });
const stored = async (taskId: string) => (await t.database.db.select({ content: messages.content }).from(messages).where(eq(messages.taskId, taskId))).map((m) => m.content);

describe("chat before and after payment", () => {
  it("masks contact details on REST and the socket while the task is unpaid, for sender, recipient and the stored row", async () => {
    const { task, poster, provider } = await taskAt(t, "claimed");
    const res = await send(poster, task.id, CONTACT);
    expect(res.statusCode).toBe(201);
    expect(res.json<Message>().content).toBe(MASKED);

    const socket = await openSocketOrThrow(`${baseUrl}/ws`, { origin: TEST_ORIGIN, cookie: provider.cookie });
    socket.send({ type: "auth", taskId: task.id });
    await socket.next("auth_success");
    socket.send({ type: "message", content: "or call 410  555  1234, evil dot com" });
    expect((await socket.next("message")).content).toBe(`or call ${HIDDEN.phone}, ${HIDDEN.link}`);
    socket.close();

    // Both were sent at the test clock's one instant: compared in any order.
    const both = [MASKED, `or call ${HIDDEN.phone}, ${HIDDEN.link}`].sort();
    expect((await call(t, provider, { url: `/api/messages/${task.id}` })).json<Message[]>().map((m) => m.content).sort()).toEqual(both);
    expect((await stored(task.id)).sort()).toEqual(both);
  });

  it("keeps a message as written once the poster has paid, and what was masked before stays masked", async () => {
    const { task, poster, provider } = await taskAt(t, "claimed");
    expect((await send(provider, task.id, CONTACT)).json<Message>().content).toBe(MASKED);
    await pay(t, poster, task);
    const res = await send(provider, task.id, CONTACT);
    expect(res.json<Message>().content).toBe(CONTACT);
    expect((await stored(task.id)).sort()).toEqual([MASKED, CONTACT].sort());
  });
});
