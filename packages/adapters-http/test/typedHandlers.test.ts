/**
 * Handlers answer typed values that their endpoints' schemas encode (typedHandlers.test-d.ts shows that a wrong
 * shape then fails to compile). A handler that builds an `HttpServerResponse` itself escapes that check, so
 * only the ones listed here may, each for the reason its file gives.
 */
import { readdirSync, readFileSync } from "node:fs"
import { join, relative } from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"

const src = fileURLToPath(new URL("../src", import.meta.url))

/** The handler files allowed to answer raw responses: the export's stream, the HTML pages, the script and the icon. */
const rawAnswers = ["files/FilesAdminHandlers.ts", "pages/PagesHandlers.ts", "submissionsOut/SubmissionsOutHandlers.ts"]

const handlerFiles = (dir: string): Array<string> =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? handlerFiles(join(dir, entry.name))
      : entry.name.endsWith("Handlers.ts")
      ? [relative(src, join(dir, entry.name))]
      : []
  )

describe("typed handlers", () => {
  it("no handler file builds a response itself, but the export's, the download's and the pages'", () => {
    const files = handlerFiles(src)
    expect(files.length).toBeGreaterThanOrEqual(10)
    const raw = files.filter((file) => /HttpServerResponse|htmlResponse/.test(readFileSync(join(src, file), "utf8")))
    expect(raw.sort()).toEqual(rawAnswers)
  })

  it("the download answers one raw stream, and nothing else in its file is raw", () => {
    const text = readFileSync(join(src, "files/FilesAdminHandlers.ts"), "utf8")
    expect(text.match(/HttpServerResponse\.\w+/g)).toEqual(["HttpServerResponse.stream"])
  })

  it("the export answers one raw stream, and nothing else in its file is raw", () => {
    const text = readFileSync(join(src, "submissionsOut/SubmissionsOutHandlers.ts"), "utf8")
    expect(text.match(/HttpServerResponse\.\w+/g)).toEqual(["HttpServerResponse.stream"])
  })
})
