import { relative, resolve } from "node:path"
import { defineConfig, type Options } from "tsup"

type Plugin = NonNullable<Options["esbuildPlugins"]>[number]

const dist = resolve(import.meta.dirname, "dist")
const adaptersSql = resolve(import.meta.dirname, "../../packages/adapters-sql/src")

/**
 * PGlite stays outside the bundle (wasm and data files next to its modules, loaded only by the embedded
 * database). The server's own node_modules do not hold it, so its import is resolved as adapters-sql
 * resolves it and written as a path relative to dist/.
 */
const pgliteExternal: Plugin = {
  name: "pglite-external",
  setup(build) {
    build.onResolve({ filter: /^@electric-sql\// }, async (args) => {
      if (args.pluginData === "pglite-external") return undefined
      const found = await build.resolve(args.path, {
        kind: args.kind,
        resolveDir: adaptersSql,
        pluginData: "pglite-external"
      })
      if (found.errors.length > 0) return { errors: found.errors }
      const path = relative(dist, found.path).split("\\").join("/")
      return { path: path.startsWith(".") ? path : `./${path}`, external: true }
    })
  }
}

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
    noExternal: [/^(?!@electric-sql\/)/],
    esbuildPlugins: [pgliteExternal],
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
