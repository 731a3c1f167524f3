/**
 * The structure has no import circle: in each library's `src/` and the server's, no file reaches itself through
 * its relative imports (type-only imports count: two files that name each other are one concept split in two).
 */
import { readdirSync, readFileSync } from "node:fs"
import { dirname, join, relative, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import ts from "typescript"
import { describe, expect, it } from "vitest"

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..")
const folders = ["packages/domain/src", "packages/adapters-sql/src", "packages/adapters-http/src", "packages/web/src", "apps/server/src"]

const sources = (dir: string): ReadonlyArray<string> =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    return entry.isDirectory() ? sources(path) : /\.tsx?$/.test(entry.name) && !entry.name.endsWith(".d.ts") ? [path] : []
  })

/** Each file's relative imports and re-exports, resolved to files of the same set. */
const importGraph = (files: ReadonlyArray<string>): ReadonlyMap<string, ReadonlyArray<string>> => {
  const known = new Set(files)
  return new Map(files.map((file) => {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, "utf8"), true, true)
    const targets = importedFiles.map((i) => i.fileName).filter((name) => name.startsWith("."))
      .map((name) => resolve(dirname(file), name).replace(/\.js$/, ".ts"))
      .filter((target) => known.has(target))
    return [file, targets]
  }))
}

/** The strongly connected components with more than one file, or a file importing itself (Tarjan). */
export const circles = (graph: ReadonlyMap<string, ReadonlyArray<string>>): ReadonlyArray<ReadonlyArray<string>> => {
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: Array<string> = []
  const onStack = new Set<string>()
  const found: Array<Array<string>> = []
  const visit = (v: string): void => {
    index.set(v, index.size)
    low.set(v, index.get(v)!)
    stack.push(v)
    onStack.add(v)
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w)
        low.set(v, Math.min(low.get(v)!, low.get(w)!))
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!))
    }
    if (low.get(v) === index.get(v)) {
      const component: Array<string> = []
      let w: string | undefined
      do {
        w = stack.pop()!
        onStack.delete(w)
        component.push(w)
      } while (w !== v)
      if (component.length > 1 || (graph.get(v) ?? []).includes(v)) found.push(component.sort())
    }
  }
  for (const v of graph.keys()) if (!index.has(v)) visit(v)
  return found
}

describe("import circles", () => {
  it("the finder names a circle through a type-only import and passes a chain", () => {
    expect(circles(new Map([["a", ["b"]], ["b", ["c"]], ["c", ["a"]], ["d", ["a"]]]))).toEqual([["a", "b", "c"]])
    expect(circles(new Map([["a", ["b"]], ["b", ["c"]], ["c", []]]))).toEqual([])
    expect(circles(new Map([["a", ["a"]]]))).toEqual([["a"]])
    const graph = importGraph([join(root, "apps/server/src/commands.ts"), join(root, "apps/server/src/command.ts")])
    expect(graph.get(join(root, "apps/server/src/commands.ts"))).toContain(join(root, "apps/server/src/command.ts"))
  })

  for (const folder of folders) {
    it(`${folder} has none`, () => {
      const files = sources(join(root, folder))
      expect(files.length).toBeGreaterThan(5)
      expect(circles(importGraph(files)).map((c) => c.map((file) => relative(root, file)))).toEqual([])
    })
  }
})
