import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";
import react from "@vitejs/plugin-react";

// Swagger UI and ReDoc, copied next to the page so that /docs and /redoc load nothing
// from the internet (served by app/api/pages.py at /api-docs).
// ReDoc's footer logo is the one file it fetches from its CDN: the service's icon instead.
const OFFLINE_REWRITES = [["https://cdn.redoc.ly/redoc/logo-mini.svg", "/favicon.svg"]];
const API_DOCS_FILES = {
  "swagger-ui-bundle.js": "swagger-ui-dist/swagger-ui-bundle.js",
  "swagger-ui.css": "swagger-ui-dist/swagger-ui.css",
  "redoc.standalone.js": "redoc/bundles/redoc.standalone.js",
};

function apiDocsFiles() {
  return {
    name: "api-docs-files",
    apply: "build",
    generateBundle() {
      for (const [name, module] of Object.entries(API_DOCS_FILES)) {
        const path = fileURLToPath(new URL(`./node_modules/${module}`, import.meta.url));
        let source = readFileSync(path, "utf8");
        for (const [from, to] of OFFLINE_REWRITES) source = source.replaceAll(from, to);
        this.emitFile({ type: "asset", fileName: `api-docs/${name}`, source });
      }
    },
  };
}

// The build lands in the Python package, which serves it at "/" (a folder name that is
// not a Python identifier, so that packaging treats it as data).
export default defineConfig({
  plugins: [react(), apiDocsFiles()],
  build: { outDir: "../app/static/web-page", emptyOutDir: true },
  server: { proxy: { "/api": "http://127.0.0.1:8000" } },
  test: { environment: "jsdom" },
});
