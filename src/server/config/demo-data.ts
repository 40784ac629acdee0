// Whether this start may hold the demo data (docs/decisions/066-demo-data-on-loopback-only.md). The
// demo accounts' password and the demo admin's authenticator key are published (README, `npm start`),
// so whoever can reach a server with them is its admin: demo data exists only on a development or
// test run that listens on, and is addressed by, the loopback interface. A pure function of the
// settings, so env.ts (which refuses SEED_DEMO=true there) and main.ts (which refuses a database
// still holding the published logins there) cannot disagree.

export interface DemoDataSettings {
  nodeEnv: "development" | "production" | "test";
  /** Where the server listens (HOST). */
  host: string;
  /** The origin people reach (PUBLIC_URL); unset means the default, http://localhost:PORT. */
  publicUrl: string | undefined;
  /** SEED_DEMO as given; unset means "the default for this start". */
  seedDemo: boolean | undefined;
}

export interface DemoDataDecision {
  /** Seed an empty database with the demo data. */
  seed: boolean;
  /** Why people other than this machine's may reach the server, naming the setting; null on a loopback development or test run. */
  exposure: string | null;
  /** Set when SEED_DEMO=true was asked for where it is not allowed: the start must stop with it. */
  refusal: string | null;
}

/** 127.0.0.0/8, ::1 (also as [::1] or IPv4-mapped) and the name localhost. */
function isLoopbackHost(host: string): boolean {
  const name = host.trim().toLowerCase().replace(/^\[(.*)\]$/, "$1");
  if (name === "localhost" || name === "::1" || name === "0:0:0:0:0:0:0:1") return true;
  const ipv4 = name.replace(/^::ffff:/, "");
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(ipv4);
}

function publicHost(publicUrl: string): string | null {
  try {
    return new URL(publicUrl).hostname;
  } catch {
    return null;
  }
}

export function demoDataDecision(settings: DemoDataSettings): DemoDataDecision {
  const exposure = exposureOf(settings);
  if (exposure === null) return { seed: settings.seedDemo ?? true, exposure, refusal: null };
  const refusal =
    settings.seedDemo === true
      ? `must not be true when ${exposure}: the demo accounts' password and the demo admin's authenticator key are published, ` +
        "so anyone who reaches this server would be its admin. Remove SEED_DEMO (such a start has no demo data), " +
        "or try the demo on this machine alone (NODE_ENV development, HOST 127.0.0.1, PUBLIC_URL unset)"
      : null;
  return { seed: false, exposure, refusal };
}

function exposureOf({ nodeEnv, host, publicUrl }: DemoDataSettings): string | null {
  if (nodeEnv === "production") return "NODE_ENV is production";
  if (!isLoopbackHost(host)) return `HOST is ${host}, which others can reach (not a loopback address)`;
  const named = publicUrl === undefined ? "localhost" : publicHost(publicUrl);
  if (named === null || !isLoopbackHost(named)) return `PUBLIC_URL is ${publicUrl ?? ""}, which is not a loopback address`;
  return null;
}
