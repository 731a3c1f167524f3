import { defineConfig } from "tsup"

// The library entry (`@forms/web`: dist/index.js, not minified) and the declarations of both entries. The embed
// scripts (`@forms/web/embed.js`: dist/embed.js, an ES module; dist/embed.iife.js, the classic script the server
// serves; each one minified file within its size budget) are written by build.mjs.
export default defineConfig({
  entry: { index: "src/index.ts" },
  format: ["esm"],
  dts: { entry: { index: "src/index.ts", embed: "src/embed.ts" } },
  clean: true,
  target: "es2022",
  platform: "browser",
  // `@forms/domain` is a dev dependency: its pure `logic` entry is bundled in, read from its sources.
  noExternal: ["@forms/domain"],
  esbuildOptions: (options) => {
    options.conditions = ["@forms/source"]
  }
})
