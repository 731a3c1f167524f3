import { writeFileSync } from "node:fs"
import { defineConfig } from "tsup"

export default defineConfig([
  // The executables: one bundle each (effect, the platform, the SQL driver and the workspace packages
  // inside), so that start-up loads a few files instead of every module of the libraries (less memory).
  {
    entry: ["src/main.ts", "src/cli.ts"],
    format: ["esm"],
    clean: false,
    sourcemap: true,
    target: "node22",
    platform: "node",
    // PGlite stays outside (wasm and data files beside its modules, loaded only by the embedded
    // database); it is a dependency of this package, so node resolves it from dist/.
    // esbuild (a native binary) stays outside too: a built server serves dist/embed.js and never calls it.
    noExternal: [/^(?!@electric-sql\/|esbuild$)/],
    // The browser elements, bundled once beside the server (src/webAssets.ts reads them from there).
    onSuccess: async () => {
      const { bundleWebSources } = await import("./src/bundleWeb.js")
      writeFileSync("dist/embed.js", await bundleWebSources())
    },
    splitting: true,
    treeshake: false,
    // Bundled CommonJS dependencies (undici, ws) call require() for node's modules.
    banner: { js: "import { createRequire as __forms_createRequire } from \"node:module\"; const require = __forms_createRequire(import.meta.url);" }
  },
  // The library entry for embedding services: its dependencies stay external, so an embedder shares its
  // own copy of effect (one copy per process).
  {
    entry: ["src/index.ts"],
    format: ["esm"],
    dts: { entry: "src/index.ts" },
    clean: false,
    sourcemap: true,
    target: "node22"
  }
])
