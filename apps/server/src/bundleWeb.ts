/**
 * Bundles the `@forms/web` elements from their TypeScript sources into one minified classic script (esbuild, an
 * IIFE): the embed script (`packages/web/src/embed.ts`, which defines both elements when loaded), as `@forms/web`'s
 * own build writes it to `dist/embed.iife.js`. A classic script, so that the `<script src>` tag organisers paste
 * loads it, and `<script type="module" src>` too. From sources, so that no build step comes before `pnpm start`.
 */
import { createRequire } from "node:module"
import { dirname, join } from "node:path"

export const bundleWebSources = async (): Promise<string> => {
  const { build } = await import("esbuild")
  const entry = join(dirname(createRequire(import.meta.url).resolve("@forms/web/package.json")), "src", "embed.ts")
  // The options of packages/web/build.mjs for its classic script.
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    format: "iife",
    target: "es2022",
    minify: true,
    write: false,
    legalComments: "none",
    // `@forms/domain/logic`, which the elements import, from its TypeScript sources too.
    conditions: ["@forms/source"],
    // A classic script cannot parse `import.meta`: @forms/web's loadedFrom.ts finds its address another way there.
    define: { "import.meta.url": "undefined" },
    logLevel: "silent"
  })
  const output = result.outputFiles[0]
  if (output === undefined) throw new Error("esbuild produced no output for @forms/web")
  return output.text
}
