// The web app's server renderer, the SSR bundle `vite build --ssr` makes of this file:
// - at build time, scripts/prerender.mjs renders the public pages that show no data once
//   (docs/decisions/033-prerendered-public-pages.md);
// - at run time, the server loads it once and renders the job board's first page and a task page
//   per request with the data it looked up (docs/decisions/036-server-rendered-data-pages.md).
// Either way a phone paints the page before any JavaScript has run, and main.tsx hydrates it.
import "./lib/zod-jitless";
import type { ReactNode } from "react";
import { StrictMode } from "react";
import { prerender } from "react-dom/static";
import { Router } from "wouter";
import type { DataPageRenderer, PageDataState } from "@shared/page-data";
import { prerenderedPaths } from "@shared/page-head";
import { App } from "./app/app";
import { pageDataRequest as dataRequest, seededQueries } from "./app/page-data";
import { createQueryClient } from "./lib/api";
import { ServerRenderTime } from "./lib/hydration";

export { prerenderedPaths };

export const pageDataRequest: DataPageRenderer["pageDataRequest"] = dataRequest;

async function render(path: string, search: string, app: ReactNode): Promise<string> {
  const { prelude } = await prerender(
    <StrictMode>
      <Router ssrPath={path} ssrSearch={search}>
        {app}
      </Router>
    </StrictMode>,
    // Never outline a large boundary for progressive streaming: that needs an inline script to
    // reveal it, which the Content-Security-Policy (script-src 'self') rightly blocks.
    { progressiveChunkSize: Number.POSITIVE_INFINITY },
  );
  return await new Response(prelude).text();
}

/** The markup of the app at `path` as a signed-out visitor's first render sees it (the user still loading). */
export async function renderPage(path: string): Promise<string> {
  return render(path, "", <App />);
}

/**
 * The page at `path?search` with the server's answer to its request, as a signed-out visitor's
 * first render sees it, on a query client of its own (requests render concurrently), and the
 * answers the browser seeds its own client with before hydrating.
 */
export const renderDataPage: DataPageRenderer["renderDataPage"] = async (path, search, request, data, renderedAt) => {
  const client = createQueryClient();
  const queries = seededQueries(request, search, data);
  for (const { key, data: answer } of queries) client.setQueryData(key, answer);
  const markup = await render(
    path,
    search,
    <ServerRenderTime value={renderedAt}>
      <App client={client} />
    </ServerRenderTime>,
  );
  client.clear();
  const state: PageDataState = { renderedAt: renderedAt.toISOString(), queries };
  return { markup, state };
};
