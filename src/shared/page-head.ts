// The head of every page (title, description, whether search engines may index it), in one table
// that the server's HTML fallback, the server renderer and the web app's router all read, so a
// shared link, a crawler and the browser tab say the same thing
// (docs/decisions/028-head-tags-from-the-server.md). Pure data and string work: the web app loads
// it on the landing page's first load, so it imports only the constants (no zod).

import { PROVIDER_SHARE_PERCENT } from "./constants.js";

export const SITE_NAME = "Errandly";

/** The landing page's whole title, and the title of any page whose own title is unknown. */
export const HOME_TITLE = "Errandly: local errands and tasks, done by verified providers";

export const DEFAULT_DESCRIPTION =
  "Post local errands and tasks, get them done by verified providers, and pay safely through escrow.";

/** What a task or profile page needs looked up on the server before its head can be written. */
export type PageSubject = "task" | "profile";

export interface RouteHead {
  /** wouter's pattern, exactly as src/web/app/router.tsx declares it. */
  pattern: string;
  /** The page's own title, before " | Errandly"; null on the landing page. */
  title: string | null;
  description: string;
  /** Public pages a search engine should list; signed-in and one-off pages are not. */
  index: boolean;
  /** The address this page is known by when several reach it (/jobs is /job-board). */
  canonical?: string;
  subject?: PageSubject;
  /**
   * Its HTML is rendered once at build time, so it paints before any script runs
   * (docs/decisions/033-prerendered-public-pages.md): public pages whose content is the same for
   * everyone. Pages that list data (the job board, the directory) or look up a subject are not.
   */
  prerender?: true;
}

const PROVIDER_PITCH = "Earn money helping people in your area with errands and tasks, on your own schedule.";

/** A public page whose content comes from the API at each visit: indexed, never prerendered. */
const publicListPage = (pattern: string, title: string | null, description: string, canonical?: string): RouteHead => ({
  pattern,
  title,
  description,
  index: true,
  ...(canonical ? { canonical } : {}),
});
const publicPage = (pattern: string, title: string | null, description: string, canonical?: string): RouteHead => ({
  ...publicListPage(pattern, title, description, canonical),
  prerender: true,
});
const privatePage = (pattern: string, title: string): RouteHead => ({ pattern, title, description: DEFAULT_DESCRIPTION, index: false });

/** Every route of the web app; page-head.test.ts checks it against the router. */
export const ROUTE_HEADS: readonly RouteHead[] = [
  publicPage("/", null, "Post local errands and tasks with a budget, get them done by verified providers near you, and pay safely through escrow."),
  publicPage("/how-it-works", "How It Works", "How Errandly works: post a task with a budget, a verified provider claims it, your payment waits in escrow until the work is done."),
  publicPage("/services", "Our Services", "Errands, delivery, cleaning, moving, shopping, pet care and business support, all from verified local providers."),
  publicPage("/pricing", "Pricing", `No subscriptions and no hidden costs: you set the budget, Errandly adds a small service fee, and providers keep ${PROVIDER_SHARE_PERCENT}%.`),
  publicPage("/faq", "Frequently Asked Questions", "Answers about posting tasks, payments and escrow, becoming a provider, safety and support on Errandly."),
  publicPage("/benefits", "Provider Benefits", PROVIDER_PITCH, "/provider-benefits"),
  publicPage("/provider-benefits", "Provider Benefits", PROVIDER_PITCH),
  publicPage("/requirements", "Provider Requirements", "What you need to become a verified Errandly provider: identity check, age, and the services you offer."),
  publicPage("/provider-support", "Provider Support", "Help for Errandly providers: claiming tasks, payments and payouts, and how to reach our team."),
  publicPage("/support", "Provider Support", "Help for Errandly providers: claiming tasks, payments and payouts, and how to reach our team.", "/provider-support"),
  publicListPage("/job-board", "Job Board", "Open local errands and tasks with their budgets: browse by category, distance and price, and claim one as a verified provider."),
  publicListPage("/jobs", "Job Board", "Open local errands and tasks with their budgets: browse by category, distance and price, and claim one as a verified provider.", "/job-board"),
  publicListPage("/providers", "Browse Available Providers", "Verified Errandly providers near you, with their services, ratings and completed tasks."),
  publicPage("/privacy", "Privacy Policy", "What Errandly keeps about you, why, for how long, and how to download or delete it."),
  publicPage("/terms", "Terms of Service", "The terms for posting, claiming and paying for tasks on Errandly, escrow and payouts included."),
  publicPage("/contact", "Contact Us", "Questions about Errandly? Send us a message or visit our Annapolis office, open every day from 9 AM to 6 PM."),
  publicPage("/book-appointment", "Schedule an Office Visit", "Book a visit, call or text with the Errandly team at our Annapolis office, 9 AM to 6 PM every day."),
  // The server looks the subject up and writes its own title; these are the fallbacks while the
  // web app loads it.
  { pattern: "/task/:id", title: "Task", description: DEFAULT_DESCRIPTION, index: true, subject: "task" },
  { pattern: "/tasks/:id", title: "Task", description: DEFAULT_DESCRIPTION, index: true, subject: "task" },
  { pattern: "/users/:id", title: "Profile", description: DEFAULT_DESCRIPTION, index: true, subject: "profile" },
  privatePage("/become-provider", "Become a Provider"),
  privatePage("/dashboard", "Dashboard"),
  privatePage("/admin", "Admin Dashboard"),
  privatePage("/admin/inbox", "Inbox"),
  privatePage("/admin/finance", "Finance"),
  privatePage("/admin/audit", "Audit Log"),
  privatePage("/admin/outbox", "E-mail Outbox"),
  privatePage("/admin/reports", "Reports"),
  privatePage("/provider/profile", "My Provider Profile"),
  privatePage("/sign-in", "Sign In"),
  privatePage("/sign-in/second-step", "Confirm It Is You"),
  privatePage("/forgot-password", "Forgot Password"),
  privatePage("/reset-password", "Reset Password"),
  privatePage("/verify-email", "Verify Your E-mail"),
  privatePage("/earnings", "Earnings"),
  privatePage("/settings/:tab?", "Settings"),
  privatePage("/goodbye", "Account deleted"),
  privatePage("/payouts/sandbox-onboarding", "Set Up Payouts"),
];

/** Any address no route matches (the web app shows its not-found page). */
export const NOT_FOUND_HEAD: RouteHead = { pattern: "*", title: "Page not found", description: DEFAULT_DESCRIPTION, index: false };

/** The text of a <title>: "How It Works | Errandly", or the home title for the landing page. */
export function fullTitle(title: string | null): string {
  return title ? `${title} | ${SITE_NAME}` : HOME_TITLE;
}

export interface RouteMatch {
  route: RouteHead;
  params: Record<string, string>;
}

/** The route of a path (no query), matched the way wouter does for our patterns: ":name" and a trailing ":name?". */
export function matchRoute(path: string): RouteMatch {
  const segments = trimSlashes(path).split("/");
  for (const route of ROUTE_HEADS) {
    const params = matchPattern(trimSlashes(route.pattern).split("/"), segments);
    if (params) return { route, params };
  }
  return { route: NOT_FOUND_HEAD, params: {} };
}

/** The canonical path of a matched route ("/tasks/1" is "/task/1"). */
export function canonicalPath(match: RouteMatch, path: string): string {
  if (match.route.subject === "task") return `/task/${match.params.id ?? ""}`;
  return match.route.canonical ?? (path === "" ? "/" : path);
}

/** Every address whose HTML the build renders (each alias too: the HTML is served by the address asked for). */
export function prerenderedPaths(): string[] {
  return ROUTE_HEADS.filter((r) => r.prerender).map((r) => r.pattern);
}

/** The public pages without a subject, once each by their canonical path, for the sitemap. */
export function indexedStaticPaths(): string[] {
  return ROUTE_HEADS.filter((r) => r.index && !r.subject && !r.canonical).map((r) => r.pattern);
}

/**
 * Path prefixes of the pages that are not to be indexed, for robots.txt: "/admin" (a page, and the
 * folder of the other admin pages), "/provider/" (only a folder: "/provider" alone would also shut
 * out /providers and /provider-benefits, since robots.txt rules are plain prefixes).
 */
export function privatePathPrefixes(): string[] {
  const prefixes = ROUTE_HEADS.filter((r) => !r.index).map((r) => {
    const first = `/${trimSlashes(r.pattern).split("/")[0] ?? ""}`;
    return matchRoute(first).route.pattern === NOT_FOUND_HEAD.pattern ? `${first}/` : first;
  });
  return [...new Set(prefixes)];
}

function trimSlashes(path: string): string {
  return path.replace(/^\/+|\/+$/g, "");
}

function matchPattern(pattern: string[], segments: string[]): Record<string, string> | null {
  const params: Record<string, string> = {};
  const last = pattern[pattern.length - 1] ?? "";
  const optionalTail = last.startsWith(":") && last.endsWith("?");
  const required = optionalTail ? pattern.length - 1 : pattern.length;
  if (segments.length !== pattern.length && !(optionalTail && segments.length === required)) return null;
  for (let i = 0; i < pattern.length; i++) {
    const part = pattern[i] ?? "";
    const segment = segments[i];
    if (segment === undefined) continue; // the optional tail, absent
    if (part.startsWith(":")) {
      if (segment === "") return null;
      params[part.replace(/^:|\?$/g, "")] = decodeSegment(segment);
    } else if (part !== segment) {
      return null;
    }
  }
  return params;
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
