/**
 * Bundles the `@forms/web` elements from their TypeScript sources into one minified ES module (esbuild): the
 * embed script (`packages/web/src/embed.ts`, which defines both elements when loaded), as `@forms/web`'s own
 * build writes it to `@forms/web/embed.js`. From sources, so that no build step comes before `pnpm start`.
 */
import { createRequire } from "node:module"
import { dirname, join } from "node:path"

export const bundleWebSources = async (): Promise<string> => {
  const { build } = await import("esbuild")
  const entry = join(dirname(createRequire(import.meta.url).resolve("@forms/web/package.json")), "src", "embed.ts")
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    format: "esm",
    target: "es2022",
    minify: true,
    write: false,
    legalComments: "none",
    logLevel: "silent"
  })
  const output = result.outputFiles[0]
  if (output === undefined) throw new Error("esbuild produced no output for @forms/web")
  return output.text
}
