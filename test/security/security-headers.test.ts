import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { InjectOptions, LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "../../src/server/paths.js";
import { createUser, TEST_ORIGIN, useTestApp, type TestUser } from "../create-test-app.js";
import { tinyPdf } from "../fixtures/test-files.js";

// Issue 8, "Attack": the headers every kind of answer carries (an API route, the SPA's HTML, a
// static asset, an error, an uploaded ID document), over http and over https, and the session
// cookie's attributes. docs/security.md says why each one is there.

// A tiny built web app, so the SPA and static-asset answers do not depend on `npm run build`.
const webDist = mkdtempSync(join(tmpdir(), "errandly-headers-web-"));
mkdirSync(join(webDist, "assets"));
writeFileSync(join(webDist, "index.html"), '<!doctype html><html><head><script type="module" src="/assets/app-3f9a1c.js"></script></head><body><div id="root"></div></body></html>');
writeFileSync(join(webDist, "assets", "app-3f9a1c.js"), "console.log('errandly');\n");
afterAll(() => rmSync(webDist, { recursive: true, force: true }));

const HTTPS_ORIGIN = "https://errandly.example";
const http = await useTestApp({ WEB_DIST_DIR: webDist });
const https = await useTestApp({ WEB_DIST_DIR: webDist, PUBLIC_URL: HTTPS_ORIGIN });

const sides = [
  { name: "http", t: http, origin: TEST_ORIGIN, cookieName: "errandly_session" },
  { name: "https", t: https, origin: HTTPS_ORIGIN, cookieName: "__Host-errandly_session" },
] as const;
type Side = (typeof sides)[number];

/** app.inject as a browser on this side: its own Origin, and the session cookie under its name. */
function request(side: Side, user: TestUser | null, options: InjectOptions): Promise<LightMyRequestResponse> {
  const headers: Record<string, string> = { origin: side.origin, ...(options.headers as Record<string, string> | undefined) };
  if (user) headers.cookie = `${side.cookieName}=${user.cookie.slice(user.cookie.indexOf("=") + 1)}`;
  return side.t.app.inject({ ...options, headers });
}

/** An ID document uploaded by `owner` through the real upload routes; returns its download path. */
async function uploadIdDocument(side: Side, owner: TestUser): Promise<string> {
  const upload = await request(side, owner, { method: "POST", url: "/api/objects/upload", payload: { kind: "id_document" } });
  expect(upload.statusCode).toBe(200);
  const uploadUrl = (upload.json() as { uploadURL: string }).uploadURL;
  const put = await request(side, owner, { method: "PUT", url: uploadUrl, payload: tinyPdf(), headers: { "content-type": "application/pdf" } });
  expect(put.statusCode).toBe(200);
  const set = await request(side, owner, { method: "PUT", url: "/api/provider/set-id-document", payload: { idDocumentURL: uploadUrl } });
  expect(set.statusCode).toBe(200);
  return (set.json() as { objectPath: string }).objectPath;
}

function csp(res: LightMyRequestResponse): Map<string, string[]> {
  const header = String(res.headers["content-security-policy"] ?? "");
  return new Map(
    header
      .split(";")
      .map((d) => d.trim().split(/\s+/))
      .filter((parts) => parts[0])
      .map(([name = "", ...values]) => [name, values]),
  );
}

interface Target {
  label: string;
  status: number;
  /** The app's own policy, or the stricter one an uploaded file gets. */
  policy: "app" | "download";
  send(side: Side, owner: TestUser, idDocument: string): Promise<LightMyRequestResponse>;
}

const targets: Target[] = [
  { label: "an API route", status: 200, policy: "app", send: (side) => request(side, null, { url: "/api/health" }) },
  { label: "a signed-in API route", status: 200, policy: "app", send: (side, owner) => request(side, owner, { url: "/api/auth/user" }) },
  { label: "the SPA's HTML", status: 200, policy: "app", send: (side) => request(side, null, { url: "/dashboard" }) },
  { label: "a static asset", status: 200, policy: "app", send: (side) => request(side, null, { url: "/assets/app-3f9a1c.js" }) },
  { label: "an API 404", status: 404, policy: "app", send: (side) => request(side, null, { url: "/api/no-such-route" }) },
  { label: "a 401", status: 401, policy: "app", send: (side) => request(side, null, { url: "/api/tasks/my-tasks" }) },
  {
    label: "a CSRF 403",
    status: 403,
    policy: "app",
    send: (side) => request(side, null, { method: "POST", url: "/api/contact", payload: {}, headers: { origin: "https://evil.example" } }),
  },
  { label: "an uploaded ID document", status: 200, policy: "download", send: (side, owner, path) => request(side, owner, { url: path }) },
];

describe.each(sides)("over $name", (side) => {
  let owner: TestUser;
  let idDocument = "";
  beforeAll(async () => {
    owner = await createUser(side.t);
    idDocument = await uploadIdDocument(side, owner);
  });

  it.each(targets)("$label carries the security headers", async (target) => {
    const res = await target.send(side, owner, idDocument);
    expect(res.statusCode).toBe(target.status);
    const policy = csp(res);

    if (target.policy === "app") {
      expect(policy.get("default-src")).toEqual(["'self'"]);
      const scripts = policy.get("script-src") ?? [];
      expect(scripts).toContain("'self'");
      for (const unsafe of ["'unsafe-inline'", "'unsafe-eval'", "'unsafe-hashes'", "*", "data:", "blob:", "http:", "https:"]) {
        expect(scripts).not.toContain(unsafe);
      }
      expect(policy.get("object-src")).toEqual(["'none'"]);
      expect(policy.get("base-uri")).toEqual(["'self'"]);
      expect(policy.get("form-action")).toEqual(["'self'"]);
      // Mixed content is upgraded only where there is an https to upgrade to.
      expect(policy.has("upgrade-insecure-requests")).toBe(side.name === "https");
    } else {
      // A user's file is a document of its own: nothing in it may run, load, submit or navigate.
      expect(policy.get("default-src")).toEqual(["'none'"]);
      expect(policy.has("script-src")).toBe(false); // so default-src 'none' governs scripts
      expect(policy.has("sandbox")).toBe(true);
      expect(policy.get("sandbox")).toEqual([]);
      expect(policy.get("base-uri")).toEqual(["'none'"]);
      expect(policy.get("form-action")).toEqual(["'none'"]);
      expect(res.headers["content-disposition"]).toMatch(/^attachment;/);
      expect(res.headers["content-type"]).toBe("application/pdf");
      expect(res.headers["cache-control"]).toBe("private, no-store");
    }
    expect(policy.get("frame-ancestors")).toEqual(["'none'"]);
    expect(res.headers["x-frame-options"]).toBe("DENY");
    expect(res.headers["x-content-type-options"]).toBe("nosniff");
    expect(res.headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");
    expect(res.headers["cross-origin-opener-policy"]).toBe("same-origin");
    expect(res.headers["cross-origin-resource-policy"]).toBe("same-origin");
    expect(res.headers).not.toHaveProperty("x-powered-by");
    expect(res.headers).not.toHaveProperty("server");

    if (side.name === "https") {
      const hsts = String(res.headers["strict-transport-security"]);
      expect(Number(/max-age=(\d+)/.exec(hsts)?.[1])).toBeGreaterThanOrEqual(31_536_000);
      expect(hsts).toMatch(/includeSubDomains/);
    } else {
      expect(res.headers).not.toHaveProperty("strict-transport-security");
    }
  });
});

describe("the session cookie", () => {
  /** Registers (which signs nobody in), then signs in: the answer that sets the session cookie. */
  const signUp = async (side: Side) => {
    const credentials = { email: `cookie-${side.name}@example.test`, password: "correct horse battery" };
    const registered = await request(side, null, { method: "POST", url: "/api/auth/register", payload: { ...credentials, firstName: "C", lastName: "K" } });
    expect(registered.statusCode).toBe(202);
    return request(side, null, { method: "POST", url: "/api/auth/login", payload: credentials });
  };

  function setCookie(res: LightMyRequestResponse, name: string): string {
    const raw = res.headers["set-cookie"];
    const cookie = (Array.isArray(raw) ? raw : [raw]).map(String).find((c) => c.startsWith(`${name}=`));
    expect(cookie, `Set-Cookie ${name}`).toBeDefined();
    return cookie ?? "";
  }
  const attributes = (res: LightMyRequestResponse, name: string) =>
    setCookie(res, name)
      .split(";")
      .map((a) => a.trim().toLowerCase());

  it("over http: HttpOnly, SameSite=Lax, Path=/, no Domain, not Secure (it could not be sent back)", async () => {
    const attrs = attributes(await signUp(sides[0]), "errandly_session");
    expect(attrs).toContain("httponly");
    expect(attrs).toContain("samesite=lax");
    expect(attrs).toContain("path=/");
    expect(attrs.some((a) => a.startsWith("domain="))).toBe(false);
    expect(attrs).not.toContain("secure");
  });

  it("over https: the __Host- prefix, Secure, HttpOnly, SameSite=Lax, Path=/ and no Domain", async () => {
    const res = await signUp(sides[1]);
    expect(res.statusCode).toBe(200);
    const attrs = attributes(res, "__Host-errandly_session");
    expect(attrs).toContain("secure");
    expect(attrs).toContain("httponly");
    expect(attrs).toContain("samesite=lax");
    expect(attrs).toContain("path=/");
    expect(attrs.some((a) => a.startsWith("domain="))).toBe(false);
    expect(String(res.headers["set-cookie"])).not.toMatch(/(^|,\s*)errandly_session=/);

    // Signing out clears it under the same name and attributes (a browser ignores a mismatched clear).
    const cookie = setCookie(res, "__Host-errandly_session").split(";")[0] ?? "";
    const out = await https.app.inject({ method: "POST", url: "/api/auth/logout", headers: { origin: HTTPS_ORIGIN, cookie } });
    const cleared = attributes(out, "__Host-errandly_session");
    expect(cleared[0]).toBe("__host-errandly_session=");
    expect(cleared).toContain("secure");
    expect(cleared).toContain("path=/");
  });
});

describe("the web app works under this CSP", () => {
  it("index.html has no inline script or inline event handler (script-src has no 'unsafe-inline')", () => {
    const html = readFileSync(join(PROJECT_ROOT, "src", "web", "index.html"), "utf8");
    const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attrs = "", body = ""] of scripts) {
      expect(attrs).toMatch(/\bsrc=/);
      expect(body.trim()).toBe("");
    }
    expect(html).not.toMatch(/\son[a-z]+\s*=/i);
  });
});
