// The pages the server renders per request with their data: the job board's first page and a task
// page (docs/decisions/036-server-rendered-data-pages.md). The web app's server renderer says what a
// page needs, the server looks it up as a signed-out visitor would see it, the renderer makes the
// page's markup, and the browser finds the same answers in the HTML and adopts them before it
// hydrates, so it asks for nothing again. Pure types and one constant: the server, the renderer and
// the browser's entry all read it.

/** The id of the `<script type="application/json">` element that carries the answers in the HTML. */
export const PAGE_DATA_ELEMENT_ID = "page-data";

/**
 * What a page needs looked up before it can be rendered: the board's first page, as the API's query
 * string the page would send (`category=pet&pageSize=30`), or a task by its id (as written in the address).
 */
export type PageDataRequest = { kind: "board"; query: string } | { kind: "task"; id: string };

/** One query's answer under the key the page asks for it with. */
export interface SeededQuery {
  key: readonly unknown[];
  data: unknown;
}

/** What the browser reads before hydrating. */
export interface PageDataState {
  /**
   * The server's clock when it rendered (ISO): relative times ("5 minutes ago") are rendered from it
   * while the browser adopts the HTML, so its text matches, and from the browser's clock after.
   */
  renderedAt: string;
  queries: SeededQuery[];
}

/** The server renderer's per-request side (src/web/entry-server.tsx), as the server loads it from the build. */
export interface DataPageRenderer {
  /** What the page at this address needs, or null for a page not rendered per request. `search` has no "?". */
  pageDataRequest(path: string, search: string): PageDataRequest | null;
  /** The page's markup with `data` (the API's answer to the request, parsed) and what the browser seeds. */
  renderDataPage(path: string, search: string, request: PageDataRequest, data: unknown, renderedAt: Date): Promise<{ markup: string; state: PageDataState }>;
}
