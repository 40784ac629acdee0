import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createUser, TEST_ORIGIN, useTestApp } from "../../../test/create-test-app.js";

// Who is asking comes before what they sent: a signed-out caller of a protected route gets 401
// whatever its body, and learns nothing about what the route accepts. HEAD answers like GET.

const webDist = mkdtempSync(join(tmpdir(), "errandly-web-"));
writeFileSync(join(webDist, "index.html"), "<!doctype html><title>Errandly</title>");
const t = await useTestApp({ WEB_DIST_DIR: webDist });

describe("request order", () => {
  it.each([
    ["POST", "/api/tasks", { title: 1 }],
    ["POST", "/api/tasks", "not json"],
    ["PATCH", "/api/tasks/not-a-uuid/claim", undefined],
    ["PUT", "/api/notifications/preferences", { emailOnClaim: "yes" }],
  ])("answers a signed-out %s %s with 401 before validating its body", async (method, url, payload) => {
    const res = await t.app.inject({
      method: method as "POST",
      url,
      headers: { origin: TEST_ORIGIN, "content-type": "application/json" },
      ...(payload === undefined ? {} : { payload: typeof payload === "string" ? payload : JSON.stringify(payload) }),
    });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ message: expect.any(String) });
  });

  it("still validates a signed-in caller's body", async () => {
    const user = await createUser(t);
    const res = await t.app.inject({ method: "POST", url: "/api/tasks", headers: { origin: TEST_ORIGIN, cookie: user.cookie }, payload: { title: 1 } });
    expect(res.statusCode).toBe(400);
  });

  it.each(["/", "/tasks", "/task/00000000-0000-4000-8000-000000000001", "/api/health"])("answers HEAD %s like GET, without a body", async (url) => {
    const get = await t.app.inject({ method: "GET", url });
    const head = await t.app.inject({ method: "HEAD", url });
    expect(head.statusCode).toBe(200);
    expect(head.statusCode).toBe(get.statusCode);
    expect(head.headers["content-type"]).toBe(get.headers["content-type"]);
    expect(head.body).toBe("");
  });
});
