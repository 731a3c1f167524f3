/**
 * docs/configuration.md's table of environment variables names exactly the variables the server reads: those
 * `parseConfig` reads (recorded by handing it an environment that notes every name asked for) and those read
 * straight from `process.env` anywhere in the server's sources and the packages it runs.
 */
import { describe, expect, it } from "@effect/vitest"
import { readdirSync, readFileSync } from "node:fs"
import { dirname, join, relative, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import { parseConfig } from "../src/config.js"

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..", "..")
const docPath = join(root, "docs", "configuration.md")

/** The names in the first column of the first table under "## Environment variables". */
const documentedVariables = (markdown: string): ReadonlyArray<string> => {
  const section = markdown.split(/^## /m).find((part) => part.startsWith("Environment variables\n"))
  if (section === undefined) throw new Error("docs/configuration.md has no \"## Environment variables\" section")
  const rows = section.split("\n").filter((line) => line.startsWith("|")).slice(2) // past the header and its rule
  return rows.flatMap((row) => {
    const first = row.split("|")[1] ?? ""
    return [...first.matchAll(/`([^`]+)`/g)].map((m) => m[1] ?? "")
  })
}

/** Every name `parseConfig` asks its environment for, whatever the answer. */
const readByParseConfig = (): ReadonlyArray<string> => {
  const names = new Set<string>()
  const env = new Proxy<Record<string, string | undefined>>({}, {
    get: (_target, name) => {
      if (typeof name === "string") names.add(name)
      return undefined
    }
  })
  parseConfig(env, "/srv")
  return [...names]
}

const sourceFiles = (dir: string): ReadonlyArray<string> =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return entry.name === "testing" || entry.name === "node_modules" ? [] : sourceFiles(path)
    return entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts") ? [path] : []
  })

/** The server's code: its own sources and the source folders of the workspace packages it runs. */
const serverSources = (): ReadonlyArray<string> => [
  ...sourceFiles(join(root, "apps", "server", "src")),
  ...readdirSync(join(root, "packages")).flatMap((pkg) => sourceFiles(join(root, "packages", pkg, "src")))
]

/**
 * Reads of `process.env` in the sources: a literal name (`process.env["X"]`, `process.env.X`) is a variable read;
 * the whole environment handed to `parseConfig` or `resolvePath` is covered by `readByParseConfig`; anything else
 * (a computed name, the environment handed elsewhere) is reported, since its names cannot be known.
 */
const readFromProcessEnv = (files: ReadonlyArray<string>) => {
  const names = new Set<string>()
  const unknown: Array<string> = []
  for (const file of files) {
    readFileSync(file, "utf8").split("\n").forEach((line, i) => {
      for (const match of line.matchAll(/process\.env\b/g)) {
        const before = line.slice(0, match.index)
        const after = line.slice(match.index + match[0].length)
        const literal = /^\s*\[\s*["'`]([A-Za-z0-9_]+)["'`]\s*\]/.exec(after) ?? /^\.([A-Za-z_][A-Za-z0-9_]*)/.exec(after)
        if (literal !== null) names.add(literal[1] ?? "")
        else if (!/\b(parseConfig|resolvePath)\(\s*$/.test(before)) unknown.push(`${relative(root, file)}:${i + 1}`)
      }
    })
  }
  return { names: [...names], unknown }
}

describe("docs/configuration.md, Environment variables", () => {
  const documented = documentedVariables(readFileSync(docPath, "utf8"))
  const fromEnv = readFromProcessEnv(serverSources())
  const read = [...new Set([...readByParseConfig(), ...fromEnv.names])].sort()

  it("finds the table, and the variables the server reads", () => {
    expect(documented.length).toBeGreaterThan(20)
    expect(read).toContain("ADMIN_RATE_LIMIT_PER_MINUTE")
    expect(read).toContain("NODE_OPTIONS")
  })

  it("names every variable the server reads", () => {
    expect(read.filter((name) => !documented.includes(name))).toEqual([])
  })

  it("names no variable the server does not read", () => {
    expect(documented.filter((name) => !read.includes(name))).toEqual([])
  })

  it("names each variable once", () => {
    expect(documented.filter((name, i) => documented.indexOf(name) !== i)).toEqual([])
  })

  it("leaves no read of process.env whose names cannot be known", () => {
    expect(fromEnv.unknown).toEqual([])
  })
})

describe("documentedVariables", () => {
  it("reads every backticked name of the first column, and only the first column", () => {
    const doc = [
      "# Configuration", "", "## Environment variables", "",
      "| variable | meaning | default |", "|---|---|---|",
      "| `PORT`, `HOST` | where to listen, see `DATA_DIR` | `3000` |", "| `LOG_LEVEL` | level | `info` |", "",
      "## Demo mode", "", "| annotation | what |", "|---|---|", "| `demo_x` | a form |"
    ].join("\n")
    expect(documentedVariables(doc)).toEqual(["PORT", "HOST", "LOG_LEVEL"])
  })
})
