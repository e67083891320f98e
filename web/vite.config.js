import { defineConfig } from "vite";
import react from "@vitejs/plugin-react";

// The build lands in the Python package, which serves it at "/" (a folder name that is
// not a Python identifier, so that packaging treats it as data).
export default defineConfig({
  plugins: [react()],
  build: { outDir: "../app/static/web-page", emptyOutDir: true },
  server: { proxy: { "/api": "http://127.0.0.1:8000" } },
  test: { environment: "jsdom" },
});
