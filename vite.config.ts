import { fileURLToPath } from "node:url";
import react from "@vitejs/plugin-react";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

export default defineConfig({
  root: here("src/web"),
  publicDir: here("src/web/public"),
  plugins: [react(), tailwindcss()],
  resolve: {
    alias: { "@": here("src/web"), "@shared": here("src/shared") },
  },
  build: {
    outDir: here("dist/web"),
    emptyOutDir: true,
    sourcemap: true,
  },
  server: {
    proxy: {
      "/api": "http://localhost:3000",
      "/ws": { target: "ws://localhost:3000", ws: true },
    },
  },
});
