import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { config as zodConfig } from "zod/v4/core";
import { App } from "./app/app";
import "./styles.css";

// zod probes `new Function` for its fast object parser; our CSP has no 'unsafe-eval', so the probe
// only files a CSP violation (Chrome's Issues panel, Lighthouse best practices). Never probe.
zodConfig({ jitless: true });

const root = document.getElementById("root");
if (!root) throw new Error("#root is missing from index.html");
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
