import { PAGE_DATA_ELEMENT_ID, type PageDataState } from "@shared/page-data";

// A page the server rendered with its data carries the answers it rendered from in
// <script type="application/json" id="page-data"> (docs/decisions/036-server-rendered-data-pages.md):
// the entry puts them in the query cache before hydrating, so the page renders what the HTML shows
// and asks for nothing again.

/** The state of a page rendered with its data; null for every other page (or one whose element is unreadable). */
export function readPageData(doc: Document): PageDataState | null {
  const text = doc.getElementById(PAGE_DATA_ELEMENT_ID)?.textContent;
  if (!text) return null;
  try {
    const state = JSON.parse(text) as Partial<PageDataState>;
    return typeof state.renderedAt === "string" && Array.isArray(state.queries) ? (state as PageDataState) : null;
  } catch {
    return null;
  }
}
