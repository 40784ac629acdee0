// First, so zod is told before any module that uses it is evaluated.
import "./lib/zod-jitless";
import { StrictMode } from "react";
import { createRoot, hydrateRoot } from "react-dom/client";
import { App } from "./app/app";
import "./styles.css";

const root = document.getElementById("root");
if (!root) throw new Error("#root is missing from index.html");
const app = (
  <StrictMode>
    <App />
  </StrictMode>
);
// A prerendered public page arrives with its markup (docs/decisions/033-prerendered-public-pages.md):
// React adopts it instead of painting it again; every other page starts empty.
if (root.firstChild) hydrateRoot(root, app);
else createRoot(root).render(app);
