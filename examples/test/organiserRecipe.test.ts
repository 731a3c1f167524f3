/**
 * The recipe "Add an organiser read route, end to end" (docs/contributing.md) shows a real route's files: each file
 * it lists exists and holds the names its row gives, the counts its text states are its table's (at most 6 files
 * outside tests), and the API's definition serves the route it names.
 */
import { Api } from "@forms/adapters-http"
import { existsSync, readFileSync } from "node:fs"
import { dirname, join, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..")
const heading = "### Add an organiser read route, end to end"

interface Row {
  readonly file: string
  readonly names: ReadonlyArray<string>
}

/** The recipe's text, from its heading to the next heading. */
export const recipeSection = (markdown: string): string => {
  const start = markdown.indexOf(heading)
  if (start < 0) throw new Error(`docs/contributing.md has no "${heading}"`)
  const next = markdown.indexOf("\n### ", start + heading.length)
  return markdown.slice(start, next < 0 ? undefined : next)
}

/** The rows of the recipe's tables: `| \`file\` | what | \`name\`, \`name\` |`. */
export const recipeRows = (section: string): ReadonlyArray<Row> =>
  section.split("\n").flatMap((line) => {
    const cells = line.split("|").slice(1, -1).map((cell) => cell.trim())
    const file = /^`([^`]+)`$/.exec(cells[0] ?? "")?.[1]
    if (cells.length !== 3 || file === undefined) return []
    return [{ file, names: [...(cells[2] ?? "").matchAll(/`([^`]+)`/g)].map((m) => m[1]!) }]
  })

const isTest = (file: string): boolean =>
  /(^|\/)(test|testing)\//.test(file) || file.endsWith(".test.ts") || file.startsWith("e2e/")

const section = recipeSection(readFileSync(join(root, "docs/contributing.md"), "utf8"))
const rows = recipeRows(section)

describe("the recipe of an organiser read route", () => {
  it("reads a table row's file and names, and no other line", () => {
    const rows = recipeRows("| file | what | names |\n|---|---|---|\n| `a/b.ts` | the read | `findX`, `\"x\"` |\ntext | `c` |")
    expect(rows).toEqual([{ file: "a/b.ts", names: ["findX", "\"x\""] }])
  })

  it("lists files outside tests and tests", () => {
    expect(rows.filter((row) => !isTest(row.file)).length).toBeGreaterThan(3)
    expect(rows.filter((row) => isTest(row.file)).length).toBeGreaterThan(3)
  })

  it("each file exists and holds the names of its row", () => {
    const missing = rows.flatMap((row) => {
      const path = join(root, row.file)
      if (!existsSync(path)) return [`${row.file}: no such file`]
      const text = readFileSync(path, "utf8")
      if (row.names.length === 0) return [`${row.file}: no name to find`]
      return row.names.filter((name) => !text.includes(name)).map((name) => `${row.file}: no ${name}`)
    })
    expect(missing).toEqual([])
  })

  it("states the counts of its table: files and folders outside tests", () => {
    const outside = rows.filter((row) => !isTest(row.file)).map((row) => row.file)
    const folders = new Set(outside.map((file) => dirname(file)))
    const stated = /touches (\d+) files in (\d+) folders/.exec(section)
    expect(stated?.slice(1).map(Number)).toEqual([outside.length, folders.size])
  })

  it("keeps a route's files outside tests at most 6 (the house's rule of one file per operation family)", () => {
    expect(rows.filter((row) => !isTest(row.file)).map((row) => row.file).length).toBeLessThanOrEqual(6)
  })

  it("names a route the API serves, with the endpoint and group it names", () => {
    const route = /`(GET) (\/admin\/[^`]+)`[^`]*endpoint `(\w+)`[^`]*`(\w+)` group/.exec(section)
    expect(route).not.toBeNull()
    const [, method, path, endpoint, group] = route!
    const groups = Api.groups as Record<string, { readonly endpoints: Record<string, { readonly path: string; readonly method: string }> }>
    const served = groups[group!]?.endpoints[endpoint!]
    expect(served?.method).toBe(method)
    expect(served?.path).toBe(path!.replace(/\{(\w+)\}/g, (_, name: string) => `:${name.replace(/_(\w)/g, (_m, c: string) => c.toUpperCase())}`))
  })
})
