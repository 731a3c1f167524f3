/**
 * The repository's markdown is self-contained: no file points outside the repository (a `../shared` path, the
 * outside specification's name, its `§` sections), and every relative link between the files, anchors included,
 * resolves.
 */
import { execFileSync } from "node:child_process"
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs"
import { dirname, join, relative, resolve, sep } from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..")

const walk = (dir: string): ReadonlyArray<string> =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.name === "node_modules" || entry.name.startsWith(".") || entry.name === "dist") return []
    const path = join(dir, entry.name)
    return entry.isDirectory() ? walk(path) : entry.name.endsWith(".md") ? [relative(root, path)] : []
  })

/** The tracked markdown files (a copy without git: every markdown file outside node_modules, dist and dot folders). */
const markdownFiles = (): ReadonlyArray<string> => {
  try {
    return execFileSync("git", ["ls-files", "-z", "--", "*.md"], { cwd: root, encoding: "utf8" })
      .split("\0").filter((file) => file !== "" && existsSync(join(root, file)))
  } catch {
    return walk(root)
  }
}

/** Text outside fenced code blocks, line by line (numbers kept). */
const proseLines = (text: string): ReadonlyArray<readonly [number, string]> => {
  let fenced = false
  return text.split("\n").flatMap((line, i): ReadonlyArray<readonly [number, string]> => {
    if (/^\s*```/.test(line)) {
      fenced = !fenced
      return []
    }
    return fenced ? [] : [[i + 1, line]]
  })
}

/** GitHub's anchor of a heading: lower case, punctuation but `-` and `_` dropped, spaces as `-`. */
const anchorOf = (heading: string): string =>
  heading.toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, "").replace(/\s/g, "-")

const anchorsOf = (text: string): ReadonlySet<string> => {
  const seen = new Map<string, number>()
  const anchors = new Set<string>()
  for (const [, line] of proseLines(text)) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)
    if (heading === null) continue
    const base = anchorOf(heading[1] ?? "")
    const n = seen.get(base) ?? 0
    seen.set(base, n + 1)
    anchors.add(n === 0 ? base : `${base}-${n}`)
  }
  return anchors
}

const forbidden = [
  { what: "a path above the repository (../shared)", pattern: /\.\.\/shared/ },
  { what: "the outside specification's name (CONTRACT)", pattern: /CONTRACT/ },
  { what: "a section sign (§), the outside specification's sections", pattern: /§/ }
]

const files = markdownFiles()

describe("the repository's markdown", () => {
  it("is found: README.md, docs/ and the package READMEs", () => {
    expect(files).toContain("README.md")
    expect(files).toContain(join("docs", "api.md"))
    expect(files.filter((file) => file.startsWith(`packages${sep}`)).length).toBeGreaterThan(3)
  })

  it.each(files)("%s points nowhere outside the repository", (file) => {
    const text = readFileSync(join(root, file), "utf8")
    const found = text.split("\n").flatMap((line, i) =>
      forbidden.filter((rule) => rule.pattern.test(line)).map((rule) => `${file}:${i + 1}: ${rule.what}`)
    )
    expect(found).toEqual([])
  })

  it.each(files)("%s links only to files and headings that exist in the repository", (file) => {
    const text = readFileSync(join(root, file), "utf8")
    const broken: Array<string> = []
    for (const [number, line] of proseLines(text)) {
      for (const match of line.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
        const target = match[1] ?? ""
        if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue // https:, mailto:
        const [path = "", anchor] = target.split("#")
        const resolved = path === "" ? join(root, file) : resolve(dirname(join(root, file)), decodeURIComponent(path))
        const where = `${file}:${number}: ${target}`
        if (relative(root, resolved).startsWith("..")) broken.push(`${where} (outside the repository)`)
        else if (!existsSync(resolved)) broken.push(`${where} (no such file)`)
        else if (anchor !== undefined && anchor !== "" && resolved.endsWith(".md") && statSync(resolved).isFile()) {
          if (!anchorsOf(readFileSync(resolved, "utf8")).has(anchor)) broken.push(`${where} (no such heading)`)
        }
      }
    }
    expect(broken).toEqual([])
  })
})

describe("anchorOf", () => {
  it.each([
    ["Client addresses behind a proxy: `TRUST_PROXY_HOPS`", "client-addresses-behind-a-proxy-trust_proxy_hops"],
    ["Revisions and `If-Match`", "revisions-and-if-match"],
    ["What `pnpm test` runs", "what-pnpm-test-runs"]
  ])("%s → #%s", (heading, anchor) => {
    expect(anchorOf(heading)).toBe(anchor)
  })
})
