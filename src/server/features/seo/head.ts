import { categoryLabel } from "../../../shared/constants.js";
import { formatDollars } from "../../../shared/money.js";
import { displayName } from "../../../shared/names.js";
import { canonicalPath, fullTitle, matchRoute, SITE_NAME, type PageRoute } from "../../../shared/page-head.js";
import type { Db } from "../../db/client.js";
import { findPersonHead, findTaskHead, type TaskHeadData } from "./repository.js";

// The head tags of one address: the shared route table (src/shared/page-head.ts) for every page,
// and for a task or a profile what a signed-out visitor may see of it, looked up here. The SPA
// fallback injects them into index.html, server-rendered pages included
// (docs/decisions/028-head-tags-from-the-server.md, 036-server-rendered-data-pages.md).

/** Shipped in the web app's public folder (1200×630, the size link previews ask for). */
export const DEFAULT_SHARE_IMAGE = "/og-image.png";

export interface PageHead {
  /** The whole <title>, " | Errandly" included. */
  title: string;
  description: string;
  index: boolean;
  /** Absolute. */
  url: string;
  type: "website" | "profile";
  /** Absolute. */
  image: string;
}

export interface HeadSources {
  db: Db;
  publicUrl: string;
}

/** The head of a path (no query string); an unknown task or person gets the generic head and noindex. */
export async function resolvePageHead(sources: HeadSources, path: string): Promise<PageHead> {
  const match = matchRoute(path);
  const base = (route: PageRoute): PageHead => ({
    title: fullTitle(route.title),
    description: route.description,
    index: route.index,
    url: absolute(sources.publicUrl, canonicalPath(match, path)),
    type: "website",
    image: absolute(sources.publicUrl, DEFAULT_SHARE_IMAGE),
  });
  const id = match.params.id ?? "";
  if (match.route.subject === "task") {
    const task = await findTaskHead(sources.db, id);
    if (!task) return { ...base(match.route), title: fullTitle("Task not found"), index: false };
    return {
      ...base(match.route),
      title: fullTitle(task.title),
      description: taskDescription(task),
      // A task that can no longer be claimed stays readable but leaves search results.
      index: task.status === "open",
      image: absolute(sources.publicUrl, task.photoPath ?? DEFAULT_SHARE_IMAGE),
    };
  }
  if (match.route.subject === "profile") {
    const person = await findPersonHead(sources.db, id);
    if (!person) return { ...base(match.route), title: fullTitle("Profile not found"), index: false };
    const name = displayName(person);
    return {
      ...base(match.route),
      title: fullTitle(`${name}'s profile`),
      description: `${name} on ${SITE_NAME}: reviews, rating and completed tasks.`,
      type: "profile",
    };
  }
  return base(match.route);
}

/** "Budget $45 · Pet Care · Annapolis, MD. …": the budget is what a provider looks for first. */
export function taskDescription(task: TaskHeadData): string {
  const place = [task.city, task.state].filter((part): part is string => Boolean(part?.trim())).join(", ");
  const facts = [`Budget ${formatDollars(task.budgetCents)}`, categoryLabel(task.category), ...(place ? [place] : [])].join(" · ");
  const call = task.status === "open" ? `An open task on ${SITE_NAME}: verified local providers can claim it.` : `This task is no longer open on ${SITE_NAME}.`;
  return `${facts}. ${call}`;
}

/** The tags, every value escaped: task titles and names are user-written. */
export function renderHeadTags(head: PageHead): string {
  const meta = (attr: "name" | "property", key: string, value: string) => `<meta ${attr}="${key}" content="${escapeHtml(value)}" />`;
  return [
    `<title>${escapeHtml(head.title)}</title>`,
    meta("name", "description", head.description),
    head.index ? `<link rel="canonical" href="${escapeHtml(head.url)}" />` : meta("name", "robots", "noindex"),
    meta("property", "og:site_name", SITE_NAME),
    meta("property", "og:type", head.type),
    meta("property", "og:title", head.title),
    meta("property", "og:description", head.description),
    meta("property", "og:url", head.url),
    meta("property", "og:image", head.image),
    meta("name", "twitter:card", "summary_large_image"),
    meta("name", "twitter:title", head.title),
    meta("name", "twitter:description", head.description),
    meta("name", "twitter:image", head.image),
  ].join("\n    ");
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** On this site whatever the path says: "//elsewhere.example" is a path here, not another host. */
function absolute(publicUrl: string, path: string): string {
  return `${new URL(publicUrl).origin}/${path.replace(/^\/+/, "")}`;
}
