/** The published libraries: every folder of `packages/` whose package.json is not private. */
import { readdirSync, readFileSync } from "node:fs"
import { dirname, join, resolve } from "node:path"
import { fileURLToPath } from "node:url"

export const root = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..")

/** The folder names under `packages/`, sorted: `["adapters-http", "adapters-sql", "domain", "web"]` today. */
export const libraries: ReadonlyArray<string> = readdirSync(join(root, "packages"), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .filter((dir) => {
    const file = join(root, "packages", dir, "package.json")
    try {
      return (JSON.parse(readFileSync(file, "utf8")) as { private?: boolean }).private !== true
    } catch {
      return false
    }
  })
  .sort()
