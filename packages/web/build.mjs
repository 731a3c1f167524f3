// Bundles the elements into one self-contained, minified ES module (dist/embed.js: `@forms/web/embed.js`, what the
// server serves at /embed.js) and prints its size, gzipped; fails above 30 KB. Run after tsup (`pnpm build`), which
// empties dist/ and writes the library entry and the declarations. `--check` bundles in memory only (the package's
// test: it compiles and stays under the budget). It also makes the declarations name the DOM library they are
// written against (rollup's declaration bundle drops `/// <reference lib="dom" />`), so an embedder's program
// whose `lib` lacks DOM still types the elements as HTMLElements.
import { build } from "esbuild"
import { mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { gzipSync } from "node:zlib"

const budget = 30 * 1024
const result = await build({
  entryPoints: [fileURLToPath(new URL("./src/embed.ts", import.meta.url))],
  bundle: true,
  format: "esm",
  target: "es2022",
  minify: true,
  write: false,
  legalComments: "none"
})
const code = result.outputFiles[0].contents
const gzipped = gzipSync(code, { level: 9 }).length
console.log(`embed.js: ${code.length} bytes, ${gzipped} bytes gzipped (budget ${budget})`)
if (gzipped > budget) {
  console.error("embed.js is over its 30 KB gzipped budget")
  process.exit(1)
}
if (!process.argv.includes("--check")) {
  mkdirSync(fileURLToPath(new URL("./dist", import.meta.url)), { recursive: true })
  writeFileSync(fileURLToPath(new URL("./dist/embed.js", import.meta.url)), code)
  const declarations = fileURLToPath(new URL("./dist/index.d.ts", import.meta.url))
  const reference = '/// <reference lib="dom" />\n'
  const text = readFileSync(declarations, "utf8")
  if (!text.startsWith(reference)) writeFileSync(declarations, reference + text)
}
