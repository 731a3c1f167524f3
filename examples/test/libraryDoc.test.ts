/**
 * docs/library.md ("Using it from TypeScript") shows the programs that test/pack.test.ts type-checks and runs from
 * the packed libraries: each `<!-- examples/src/<file> -->` marker is followed by that file's exact text.
 */
import { readdirSync, readFileSync } from "node:fs"
import { dirname, join, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"

const examples = resolve(dirname(fileURLToPath(import.meta.url)), "..")
const doc = readFileSync(join(examples, "..", "docs", "library.md"), "utf8")
const shown = new Map(
  [...doc.matchAll(/<!-- (examples\/src\/[\w.]+) -->\n```ts\n([\s\S]*?)```/g)].map((m) => [m[1] ?? "", m[2] ?? ""])
)
const programs = readdirSync(join(examples, "src")).filter((file) => file.endsWith(".ts")).map((file) => `examples/src/${file}`)

describe("docs/library.md, Using it from TypeScript", () => {
  it("shows every program of examples/src, and no other", () => {
    expect([...shown.keys()].sort()).toEqual(programs.sort())
  })

  it.each(programs)("shows %s exactly as the pack test runs it", (file) => {
    expect(shown.get(file)).toBe(readFileSync(join(examples, "..", file), "utf8"))
  })
})
