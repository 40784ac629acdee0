import { describe, expect, it } from "vitest";
import { demoDataDecision, type DemoDataSettings } from "./demo-data.js";
import { EnvError, parseEnv } from "./env.js";

// Demo data only on a loopback development or test run (docs/decisions/066-demo-data-on-loopback-only.md):
// its logins are published, so a server others can reach must never hold them.

const LOOPBACK_HOSTS = ["127.0.0.1", "127.0.0.53", "::1", "[::1]", "localhost", "LOCALHOST", "::ffff:127.0.0.1"];
const REACHABLE_HOSTS = ["0.0.0.0", "::", "192.168.1.20", "10.0.0.11", "errandly.example", "localhost.errandly.example", "128.0.0.1"];
const LOOPBACK_URLS = [undefined, "http://localhost:3000", "http://127.0.0.1:3000", "http://[::1]:3000", "https://localhost"];
const PUBLIC_URLS = ["https://errandly.example", "http://192.168.1.20:3000", "http://0.0.0.0:3000", "https://127.0.0.1.nip.io"];
const NODE_ENVS: DemoDataSettings["nodeEnv"][] = ["development", "test", "production"];
const SEED_DEMO: (boolean | undefined)[] = [true, false, undefined];

function cases(): { settings: DemoDataSettings; exposed: boolean }[] {
  const out: { settings: DemoDataSettings; exposed: boolean }[] = [];
  for (const nodeEnv of NODE_ENVS) {
    for (const [host, hostReachable] of [...LOOPBACK_HOSTS.map((h) => [h, false] as const), ...REACHABLE_HOSTS.map((h) => [h, true] as const)]) {
      for (const [publicUrl, urlPublic] of [...LOOPBACK_URLS.map((u) => [u, false] as const), ...PUBLIC_URLS.map((u) => [u, true] as const)]) {
        for (const seedDemo of SEED_DEMO) {
          out.push({ settings: { nodeEnv, host, publicUrl, seedDemo }, exposed: nodeEnv === "production" || hostReachable || urlPublic });
        }
      }
    }
  }
  return out;
}

describe("demoDataDecision", () => {
  it("seeds by default on a loopback development or test run, and never where others can reach", () => {
    const all = cases();
    expect(all.length).toBe(3 * 14 * 9 * 3);
    for (const { settings, exposed } of all) {
      const decision = demoDataDecision(settings);
      const label = JSON.stringify(settings);
      expect(decision.exposure !== null, label).toBe(exposed);
      expect(decision.seed, label).toBe(!exposed && settings.seedDemo !== false);
      expect(decision.refusal !== null, label).toBe(exposed && settings.seedDemo === true);
    }
  });

  it("names the setting that makes the server reachable", () => {
    const local = { nodeEnv: "development", host: "127.0.0.1", publicUrl: undefined, seedDemo: true } as const;
    expect(demoDataDecision({ ...local, nodeEnv: "production" }).refusal).toMatch(/^must not be true when NODE_ENV is production: .*published/);
    expect(demoDataDecision({ ...local, host: "0.0.0.0" }).refusal).toMatch(/^must not be true when HOST is 0\.0\.0\.0, which others can reach/);
    expect(demoDataDecision({ ...local, publicUrl: "https://errandly.example" }).refusal).toMatch(
      /^must not be true when PUBLIC_URL is https:\/\/errandly\.example, which is not a loopback address/,
    );
    expect(demoDataDecision({ ...local, publicUrl: "https://errandly.example", seedDemo: undefined })).toEqual({
      seed: false,
      exposure: "PUBLIC_URL is https://errandly.example, which is not a loopback address",
      refusal: null,
    });
    expect(demoDataDecision(local)).toEqual({ seed: true, exposure: null, refusal: null });
  });
});

describe("the environment's demo data and listen address", () => {
  const base = { LOG_LEVEL: "silent", DATA_DIR: "/tmp/errandly-demo-data-test" };

  it("listens on loopback and seeds the demo data by default (npm start)", () => {
    const env = parseEnv(base);
    expect(env.HOST).toBe("127.0.0.1");
    expect(env.SEED_DEMO).toBe(true);
    expect(env.PUBLIC_URL).toBe("http://localhost:3000");
  });

  it("has no demo data in production unless asked, and refuses to start when asked", () => {
    expect(parseEnv({ ...base, NODE_ENV: "production", PUBLIC_URL: "https://errandly.example" }).SEED_DEMO).toBe(false);
    expect(parseEnv({ ...base, HOST: "0.0.0.0" }).SEED_DEMO).toBe(false);
    expect(parseEnv({ ...base, SEED_DEMO: "false" }).SEED_DEMO).toBe(false);
    const refused = (source: Record<string, string>, setting: RegExp) => {
      expect(() => parseEnv({ ...base, SEED_DEMO: "true", ...source })).toThrow(EnvError);
      expect(() => parseEnv({ ...base, SEED_DEMO: "true", ...source })).toThrow(setting);
    };
    refused({ NODE_ENV: "production", PUBLIC_URL: "https://errandly.example" }, /SEED_DEMO: must not be true when NODE_ENV is production/);
    refused({ NODE_ENV: "production", HOST: "127.0.0.1" }, /SEED_DEMO: must not be true when NODE_ENV is production/);
    refused({ HOST: "0.0.0.0" }, /SEED_DEMO: must not be true when HOST is 0\.0\.0\.0/);
    refused({ PUBLIC_URL: "https://errandly.example" }, /SEED_DEMO: must not be true when PUBLIC_URL is https:\/\/errandly\.example/);
    expect(parseEnv({ ...base, SEED_DEMO: "true", NODE_ENV: "test", HOST: "::1", PUBLIC_URL: "http://[::1]:3000" }).SEED_DEMO).toBe(true);
  });
});
