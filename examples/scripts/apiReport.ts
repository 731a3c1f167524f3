/**
 * Writes the API report of every library into its README.md (the json block after `<!-- api-report -->`)
 * from what its entry points export now: run it after changing a public API on purpose, then review the diff.
 * `pnpm --filter @forms/examples api-report`
 */
import { readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { libraries, root } from "./libraries.js"

const wrap = (names: ReadonlyArray<string>, indent: string): string => {
  const lines: Array<string> = []
  let line = ""
  for (const quoted of names.map((name) => JSON.stringify(name))) {
    if (line !== "" && indent.length + line.length + quoted.length + 2 > 118) {
      lines.push(indent + line.trimEnd())
      line = ""
    }
    line += `${quoted}, `
  }
  if (line !== "") lines.push(indent + line.replace(/, $/, ""))
  return lines.join("\n")
}

for (const dir of libraries) {
  const base = join(root, "packages", dir)
  const manifest = JSON.parse(readFileSync(join(base, "package.json"), "utf8")) as {
    readonly exports: Readonly<Record<string, Readonly<Record<string, string>> | string>>
  }
  const report: Array<string> = []
  for (const [entry, target] of Object.entries(manifest.exports)) {
    if (typeof target === "string" || target["@forms/source"] === undefined) continue
    const module = (await import(join(base, target["@forms/source"]))) as Record<string, unknown>
    report.push(`  ${JSON.stringify(entry)}: [\n${wrap(Object.keys(module).sort(), "    ")}\n  ]`)
  }
  const file = join(base, "README.md")
  const readme = readFileSync(file, "utf8")
  const updated = readme.replace(/(<!-- api-report -->[\s\S]*?```json\n)[\s\S]*?```/, `$1{\n${report.join(",\n")}\n}\n\`\`\``)
  writeFileSync(file, updated)
  console.log(`${dir}: ${updated === readme ? "unchanged" : "updated"}`)
}
