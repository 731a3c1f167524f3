/** Bundles the `@forms/web` elements from their TypeScript sources into one minified ES module (esbuild). */
import { createRequire } from "node:module"

export const bundleWebSources = async (): Promise<string> => {
  const { build } = await import("esbuild")
  const entry = createRequire(import.meta.url).resolve("@forms/web")
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
