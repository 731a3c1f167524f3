// Bundles the elements (src/embed.ts) into two self-contained, minified files and prints their sizes, gzipped;
// fails above 30 KB:
// - dist/embed.js, an ES module (`@forms/web/embed.js`, for bundlers and module scripts: it also exports the names);
// - dist/embed.iife.js, a classic script (an IIFE: no `export`, no `import.meta`), what the server serves at
//   /embed.js, so that both `<script src>` and `<script type="module" src>` load it.
// Run after tsup (`pnpm build`), which empties dist/ and writes the library entry and the declarations. `--check`
// bundles in memory only (the package's test: both compile, stay under the budget, and the classic one parses as a
// classic script). It also makes the declarations name the DOM library they are written against (rollup's
// declaration bundle drops `/// <reference lib="dom" />`), so an embedder's program whose `lib` lacks DOM still
// types the elements as HTMLElements.
import { build } from "esbuild"
import { mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { Script } from "node:vm"
import { gzipSync } from "node:zlib"

const budget = 30 * 1024
const entry = fileURLToPath(new URL("./src/embed.ts", import.meta.url))
// apps/server/src/bundleWeb.ts builds the classic script with the same options.
const bundle = async (format) => {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    format,
    target: "es2022",
    minify: true,
    write: false,
    legalComments: "none",
    // `@forms/domain/logic` (the conditions the server evaluates too) is bundled from its TypeScript sources.
    conditions: ["@forms/source"],
    // A classic script cannot parse `import.meta`: src/loadedFrom.ts finds its address another way there.
    define: format === "iife" ? { "import.meta.url": "undefined" } : {}
  })
  return result.outputFiles[0].text
}

const files = { "embed.js": await bundle("esm"), "embed.iife.js": await bundle("iife") }
// Throws a SyntaxError on an `export`, an `import` or `import.meta` left in the classic script.
new Script(files["embed.iife.js"], { filename: "embed.iife.js" })
let over = false
for (const [name, code] of Object.entries(files)) {
  const gzipped = gzipSync(code, { level: 9 }).length
  console.log(`${name}: ${Buffer.byteLength(code)} bytes, ${gzipped} bytes gzipped (budget ${budget})`)
  if (gzipped > budget) {
    console.error(`${name} is over its 30 KB gzipped budget`)
    over = true
  }
}
if (over) process.exit(1)
if (!process.argv.includes("--check")) {
  mkdirSync(fileURLToPath(new URL("./dist", import.meta.url)), { recursive: true })
  for (const [name, code] of Object.entries(files)) writeFileSync(fileURLToPath(new URL(`./dist/${name}`, import.meta.url)), code)
  const declarations = fileURLToPath(new URL("./dist/index.d.ts", import.meta.url))
  const reference = '/// <reference lib="dom" />\n'
  const text = readFileSync(declarations, "utf8")
  if (!text.startsWith(reference)) writeFileSync(declarations, reference + text)
}
