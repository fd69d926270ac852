import { fileURLToPath } from "node:url";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";
import { swPrecache } from "./build/sw-precache";

// The client is built into web/dist, which the API worker serves as static assets; its
// service worker (dist/sw.js) gets the list of the build's hashed files to keep.
export default defineConfig({
  root: fileURLToPath(new URL(".", import.meta.url)),
  plugins: [react(), swPrecache()],
  build: { outDir: "dist", emptyOutDir: true, sourcemap: false },
});
