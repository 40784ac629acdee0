// The route table: every page of the web app in one row each, read by the web app's router (which
// page module a pattern renders, and who may open it), by the server's head tags and server renderer
// (title, description, whether search engines may index it) and by the build (which pages are
// prerendered, which page chunks a public page's HTML preloads), so a shared link, a crawler and the
// browser tab say the same thing (docs/decisions/028-head-tags-from-the-server.md,
// 055-one-route-table.md). Pure data and string work: the web app loads it on the first navigation,
// not with the landing page, so it imports only the constants (no zod).
//
// To add a page: write its module in src/web/app/routes/<page>.tsx (a default export) and add one row
// to ROUTE_HEADS below: pattern, page, access, title, description, index, and prerender for a public
// page whose content is the same for everyone. Nothing else lists routes.

import { PROVIDER_SHARE_PERCENT } from "./constants.js";

export const SITE_NAME = "Errandly";

/** The landing page's whole title, and the title of any page whose own title is unknown. */
export const HOME_TITLE = "Errandly: local errands and tasks, done by verified providers";

export const DEFAULT_DESCRIPTION =
  "Post local errands and tasks, get them done by verified providers, and pay safely through escrow.";

/** What a task or profile page needs looked up on the server before its head can be written. */
export type PageSubject = "task" | "profile";

/**
 * Who may open a page: anyone, a signed-in person (a visitor is sent to sign in, or shown
 * `signInPrompt`), or an admin (anyone else sees "Access Denied").
 */
export type PageAccess = "public" | "signed-in" | "admin";

export interface PageRoute {
  /** wouter's pattern: ":name" segments and an optional ":name?" tail. */
  pattern: string;
  /** The page module, src/web/app/routes/<page>.tsx, whose default export the router renders. */
  page: string;
  access: PageAccess;
  /** A visitor on a signed-in page sees this with a Sign In button instead of being sent to sign in at once. */
  signInPrompt?: { title: string; description: string };
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
const PROVIDER_SUPPORT = "Help for Errandly providers: claiming tasks, payments and payouts, and how to reach our team.";
const JOB_BOARD = "Open local errands and tasks with their budgets: browse by category, distance and price, and claim one as a verified provider.";

/** Every page of the web app, in the order the router tries them; router-pages.test.ts checks each page module exists. */
export const ROUTE_HEADS: readonly PageRoute[] = [
  { pattern: "/", page: "landing", access: "public", prerender: true, index: true, title: null, description: "Post local errands and tasks with a budget, get them done by verified providers near you, and pay safely through escrow." },
  { pattern: "/how-it-works", page: "how-it-works", access: "public", prerender: true, index: true, title: "How It Works", description: "How Errandly works: post a task with a budget, a verified provider claims it, your payment waits in escrow until the work is done." },
  { pattern: "/services", page: "services", access: "public", prerender: true, index: true, title: "Our Services", description: "Errands, delivery, cleaning, moving, shopping, pet care and business support, all from verified local providers." },
  { pattern: "/pricing", page: "pricing", access: "public", prerender: true, index: true, title: "Pricing", description: `No subscriptions and no hidden costs: you set the budget, Errandly adds a small service fee, and providers keep ${PROVIDER_SHARE_PERCENT}%.` },
  { pattern: "/faq", page: "faq", access: "public", prerender: true, index: true, title: "Frequently Asked Questions", description: "Answers about posting tasks, payments and escrow, becoming a provider, safety and support on Errandly." },
  { pattern: "/become-provider", page: "become-provider", access: "signed-in", index: false, title: "Become a Provider", description: DEFAULT_DESCRIPTION },
  { pattern: "/benefits", page: "provider-benefits", access: "public", prerender: true, index: true, title: "Provider Benefits", description: PROVIDER_PITCH, canonical: "/provider-benefits" },
  { pattern: "/provider-benefits", page: "provider-benefits", access: "public", prerender: true, index: true, title: "Provider Benefits", description: PROVIDER_PITCH },
  { pattern: "/requirements", page: "requirements", access: "public", prerender: true, index: true, title: "Provider Requirements", description: "What you need to become a verified Errandly provider: identity check, age, and the services you offer." },
  { pattern: "/provider-support", page: "provider-support", access: "public", prerender: true, index: true, title: "Provider Support", description: PROVIDER_SUPPORT },
  { pattern: "/support", page: "provider-support", access: "public", prerender: true, index: true, title: "Provider Support", description: PROVIDER_SUPPORT, canonical: "/provider-support" },
  { pattern: "/jobs", page: "job-board", access: "public", index: true, title: "Job Board", description: JOB_BOARD, canonical: "/job-board" },
  { pattern: "/job-board", page: "job-board", access: "public", index: true, title: "Job Board", description: JOB_BOARD },
  { pattern: "/providers", page: "providers", access: "public", index: true, title: "Browse Available Providers", description: "Verified Errandly providers near you, with their services, ratings and completed tasks." },
  // The server looks the subject up and writes its own title; these are the fallbacks while the
  // web app loads it.
  { pattern: "/users/:id", page: "user-profile", access: "public", index: true, title: "Profile", description: DEFAULT_DESCRIPTION, subject: "profile" },
  {
    pattern: "/dashboard",
    page: "dashboard",
    access: "signed-in",
    signInPrompt: { title: "Sign In Required", description: "Sign in to see your tasks and jobs." },
    index: false,
    title: "Dashboard",
    description: DEFAULT_DESCRIPTION,
  },
  { pattern: "/task/:id", page: "task-detail", access: "public", index: true, title: "Task", description: DEFAULT_DESCRIPTION, subject: "task" },
  { pattern: "/tasks/:id", page: "task-detail", access: "public", index: true, title: "Task", description: DEFAULT_DESCRIPTION, subject: "task" },
  { pattern: "/admin", page: "admin", access: "admin", index: false, title: "Admin Dashboard", description: DEFAULT_DESCRIPTION },
  { pattern: "/admin/inbox", page: "admin-inbox", access: "admin", index: false, title: "Inbox", description: DEFAULT_DESCRIPTION },
  { pattern: "/admin/finance", page: "admin-finance", access: "admin", index: false, title: "Finance", description: DEFAULT_DESCRIPTION },
  { pattern: "/admin/audit", page: "admin-audit", access: "admin", index: false, title: "Audit Log", description: DEFAULT_DESCRIPTION },
  { pattern: "/admin/outbox", page: "admin-outbox", access: "admin", index: false, title: "E-mail Outbox", description: DEFAULT_DESCRIPTION },
  { pattern: "/admin/reports", page: "admin-reports", access: "admin", index: false, title: "Reports", description: DEFAULT_DESCRIPTION },
  { pattern: "/provider/profile", page: "provider-profile", access: "signed-in", index: false, title: "My Provider Profile", description: DEFAULT_DESCRIPTION },
  { pattern: "/privacy", page: "privacy", access: "public", prerender: true, index: true, title: "Privacy Policy", description: "What Errandly keeps about you, why, for how long, and how to download or delete it." },
  { pattern: "/terms", page: "terms", access: "public", prerender: true, index: true, title: "Terms of Service", description: "The terms for posting, claiming and paying for tasks on Errandly, escrow and payouts included." },
  { pattern: "/contact", page: "contact", access: "public", prerender: true, index: true, title: "Contact Us", description: "Questions about Errandly? Send us a message or visit our Annapolis office, open every day from 9 AM to 6 PM." },
  { pattern: "/book-appointment", page: "book-appointment", access: "public", prerender: true, index: true, title: "Schedule an Office Visit", description: "Book a visit, call or text with the Errandly team at our Annapolis office, 9 AM to 6 PM every day." },
  { pattern: "/sign-in", page: "sign-in", access: "public", index: false, title: "Sign In", description: DEFAULT_DESCRIPTION },
  { pattern: "/sign-in/second-step", page: "sign-in-second-step", access: "public", index: false, title: "Confirm It Is You", description: DEFAULT_DESCRIPTION },
  { pattern: "/forgot-password", page: "forgot-password", access: "public", index: false, title: "Forgot Password", description: DEFAULT_DESCRIPTION },
  { pattern: "/reset-password", page: "reset-password", access: "public", index: false, title: "Reset Password", description: DEFAULT_DESCRIPTION },
  { pattern: "/verify-email", page: "verify-email", access: "public", index: false, title: "Verify Your E-mail", description: DEFAULT_DESCRIPTION },
  { pattern: "/earnings", page: "earnings", access: "signed-in", index: false, title: "Earnings", description: DEFAULT_DESCRIPTION },
  // /settings/notifications keeps working: e-mails link to it.
  {
    pattern: "/settings/:tab?",
    page: "settings",
    access: "signed-in",
    signInPrompt: { title: "Settings", description: "Sign in to change your name, photo, e-mail, password and notifications." },
    index: false,
    title: "Settings",
    description: DEFAULT_DESCRIPTION,
  },
  { pattern: "/goodbye", page: "goodbye", access: "public", index: false, title: "Account deleted", description: DEFAULT_DESCRIPTION },
  { pattern: "/payouts/sandbox-onboarding", page: "sandbox-onboarding", access: "signed-in", index: false, title: "Set Up Payouts", description: DEFAULT_DESCRIPTION },
  { pattern: "/receipts", page: "receipts", access: "signed-in", index: false, title: "Receipts", description: DEFAULT_DESCRIPTION },
  { pattern: "/receipts/:id", page: "receipt", access: "signed-in", index: false, title: "Receipt", description: DEFAULT_DESCRIPTION },
  { pattern: "/earnings/statement/:year", page: "statement", access: "signed-in", index: false, title: "Yearly Statement", description: DEFAULT_DESCRIPTION },
  { pattern: "/admin/ledger", page: "admin-ledger", access: "admin", index: false, title: "Ledger", description: DEFAULT_DESCRIPTION },
];

/** Any address no route matches (the web app shows its not-found page). */
export const NOT_FOUND_HEAD: PageRoute = { pattern: "*", page: "not-found", access: "public", title: "Page not found", description: DEFAULT_DESCRIPTION, index: false };

/** The text of a <title>: "How It Works | Errandly", or the home title for the landing page. */
export function fullTitle(title: string | null): string {
  return title ? `${title} | ${SITE_NAME}` : HOME_TITLE;
}

export interface RouteMatch {
  route: PageRoute;
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
