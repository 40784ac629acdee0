// First, so zod is told before any module that uses it is evaluated.
import "./lib/zod-jitless";
import { startTransition, StrictMode } from "react";
import { createRoot, hydrateRoot } from "react-dom/client";
import { App } from "./app/app";
import { queryClient } from "./lib/api";
import { ServerRenderTime } from "./lib/hydration";
import { readPageData } from "./lib/page-data";
import "./styles.css";

const root = document.getElementById("root");
if (!root) throw new Error("#root is missing from index.html");
// A page the server rendered with its data brings the answers along: in the cache before React
// looks, so the page renders what the HTML shows and fetches nothing (docs/decisions/036-server-rendered-data-pages.md).
// They are as old as the server's render, which is what the live connection's catch-up compares
// against (docs/decisions/025-live-task-status.md).
const pageData = readPageData(document);
const renderedAt = pageData ? new Date(pageData.renderedAt) : null;
for (const { key, data } of pageData?.queries ?? []) queryClient.setQueryData(key, data, { updatedAt: renderedAt?.getTime() });
const app = (
  <StrictMode>
    <ServerRenderTime value={renderedAt}>
      <App />
    </ServerRenderTime>
  </StrictMode>
);
// A server-rendered page arrives with its markup (docs/decisions/033-prerendered-public-pages.md):
// React adopts it instead of painting it again; every other page starts empty. Adopting it as a
// transition lets React yield to the browser every few milliseconds: the job board's 30 cards were
// one long task on a phone (docs/decisions/036-server-rendered-data-pages.md).
if (root.firstChild) startTransition(() => void hydrateRoot(root, app));
else createRoot(root).render(app);

// The service worker (public/sw.js: pushes, the offline page) is registered once the page has
// loaded and the browser is idle, so it takes nothing from the first load (docs/decisions/062-web-push-and-installable-app.md).
if ("serviceWorker" in navigator) {
  const register = () => void navigator.serviceWorker.register("/sw.js").catch(() => undefined);
  const whenIdle = () => ("requestIdleCallback" in window ? window.requestIdleCallback(register, { timeout: 5_000 }) : setTimeout(register, 1_000));
  if (document.readyState === "complete") whenIdle();
  else window.addEventListener("load", whenIdle, { once: true });
}
