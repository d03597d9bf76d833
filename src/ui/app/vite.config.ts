// The web app's page, built with the package (npm run build) into dist/ui/app, which
// `planloop ui` serves. Preact with the JSX transform Vite has built in; nothing is fetched
// from elsewhere at run time.
import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";

export default defineConfig({
  root: fileURLToPath(new URL(".", import.meta.url)),
  // Relative: the page is served at the root (planloop ui) or under /ui/ (planloop serve).
  base: "./",
  logLevel: "warn",
  oxc: { jsx: { runtime: "automatic", importSource: "preact" } },
  build: {
    outDir: fileURLToPath(new URL("../../../dist/ui/app", import.meta.url)),
    emptyOutDir: true,
    assetsDir: "assets",
    sourcemap: false,
  },
});
