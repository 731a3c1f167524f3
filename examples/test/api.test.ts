/**
 * API report: the exported names of every entry point of every library, against the list committed in the
 * library's README.md (between `<!-- api-report -->` and the end of the next json block), so that an accidental
 * change to a public API (a name added, renamed or removed) fails. Types are not listed (they have no runtime name).
 */
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { libraries, root } from "../scripts/libraries.js"

type Target = Readonly<Record<string, string>> | string
interface Manifest {
  readonly name: string
  readonly private?: boolean
  readonly repository?: unknown
  readonly exports: Readonly<Record<string, Target>>
  readonly publishConfig?: { readonly exports?: Readonly<Record<string, Target>> }
}

const withoutSourceCondition = (exports: Manifest["exports"]) =>
  Object.fromEntries(Object.entries(exports).map(([entry, target]) =>
    [entry, typeof target === "string" ? target : Object.fromEntries(Object.entries(target).filter(([c]) => c !== "@forms/source"))]
  ))

/** The one repository every manifest names (the root's; docs/contributing.md, "Publishing", says why it does not resolve yet). */
const repository = (JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as Manifest).repository

describe.each(libraries)("packages/%s", (dir) => {
  const base = join(root, "packages", dir)
  const manifest = JSON.parse(readFileSync(join(base, "package.json"), "utf8")) as Manifest
  const readme = readFileSync(join(base, "README.md"), "utf8")
  const block = /<!-- api-report -->[\s\S]*?```json\n([\s\S]*?)```/.exec(readme)?.[1]
  const listed = JSON.parse(block ?? "{}") as Record<string, ReadonlyArray<string>>
  const entries = Object.entries(manifest.exports).flatMap(([entry, target]) =>
    typeof target === "string" ? [] : [[entry, target["@forms/source"] ?? ""] as const])

  it("README.md lists every entry point of package.json, and only those", () => {
    expect(Object.keys(listed).sort()).toEqual(entries.map(([entry]) => entry).sort())
  })

  it("names the workspace's one repository, with its own folder as directory", () => {
    expect(manifest.repository).toEqual({ ...(repository as object), directory: `packages/${dir}` })
  })

  it("carries the workspace's LICENSE (packed with it: MIT's notice travels with every copy)", () => {
    expect(readFileSync(join(base, "LICENSE"), "utf8")).toBe(readFileSync(join(root, "LICENSE"), "utf8"))
  })

  it("lists types first in every published entry point", () => {
    for (const target of Object.values(manifest.publishConfig?.exports ?? {})) {
      if (typeof target !== "string") expect(Object.keys(target)[0]).toBe("types")
    }
  })

  it("publishes the same entry points without the workspace-only @forms/source condition", () => {
    expect(manifest.publishConfig?.exports).toEqual(withoutSourceCondition(manifest.exports))
  })

  it.each(entries)(`${manifest.name} %s exports exactly the names README.md lists`, async (entry, source) => {
    const module = (await import(join(base, source))) as Record<string, unknown>
    expect(Object.keys(module).sort()).toEqual(listed[entry])
  })
})
