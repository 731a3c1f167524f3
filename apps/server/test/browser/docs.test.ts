import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { Browser, Page } from "playwright-core"
import { chromiumPath, launchChromium, noChromium, startServer } from "./browser.js"

const slow = { timeout: 180_000 }

/**
 * Resources the rendered page names on another host: `src`/`href`/`srcset`/`poster`/`data` of the elements that
 * load them (links to follow are not loads), and `url(…)` or `@import` in every style sheet it holds.
 */
const externalResources = (page: Page): Promise<ReadonlyArray<string>> =>
  // Browser-side code as a string: this package is typechecked without the DOM library.
  page.evaluate<ReadonlyArray<string>>(`(() => {
    const out = []
    const foreign = (value) => {
      try {
        const url = new URL(value, location.href)
        return (url.protocol === "http:" || url.protocol === "https:") && url.origin !== location.origin
      } catch {
        return false
      }
    }
    const loading = "script, link, img, iframe, source, video, audio, track, object, embed, image, use, input"
    for (const el of document.querySelectorAll(loading)) {
      for (const name of ["src", "href", "poster", "data", "xlink:href"]) {
        const value = el.getAttribute(name)
        if (value !== null && foreign(value)) out.push(el.tagName.toLowerCase() + " " + name + "=" + value)
      }
      for (const part of (el.getAttribute("srcset") ?? "").split(",")) {
        const value = part.trim().split(/\\s+/)[0]
        if (value && foreign(value)) out.push(el.tagName.toLowerCase() + " srcset=" + value)
      }
    }
    const sheets = [...document.styleSheets, ...(document.adoptedStyleSheets ?? [])]
    const rules = (list) => [...list].flatMap((rule) => [rule, ...(rule.cssRules ? rules(rule.cssRules) : [])])
    for (const sheet of sheets) {
      if (sheet.href && foreign(sheet.href)) out.push("stylesheet " + sheet.href)
      for (const rule of rules(sheet.cssRules)) {
        const text = rule.cssText
        for (const match of text.matchAll(/url\\(\\s*(['"]?)([^'")]+)\\1\\s*\\)/g)) {
          if (foreign(match[2])) out.push("css url(" + match[2] + ")")
        }
        if (rule instanceof CSSImportRule && foreign(rule.href)) out.push("css @import " + rule.href)
      }
    }
    return out
  })()`)

/** The text of the shell (curl) samples shown for `path`. */
const curlSamples = (page: Page, path: string): Promise<ReadonlyArray<string>> =>
  page.evaluate<ReadonlyArray<string>>(`[...document.querySelectorAll("pre, code")]
    .map((el) => el.textContent ?? "")
    .filter((text) => text.startsWith("curl") && text.includes(${JSON.stringify(path)}))`)

describe.skipIf(chromiumPath === undefined)("the API reference (/docs) in Chromium", () => {
  let server: Awaited<ReturnType<typeof startServer>>
  let browser: Browser

  beforeAll(async () => {
    server = await startServer()
    browser = await launchChromium()
  }, 180_000)
  afterAll(async () => {
    await browser?.close()
    await server?.close()
  }, 60_000)

  /** A page on /docs (plus `hash`) with every request to another host recorded, rendered. */
  const openDocs = async (hash = "") => {
    const context = await browser.newContext()
    const page = await context.newPage()
    const elsewhere: Array<string> = []
    const origin = new URL(server.url).origin
    page.on("request", (request) => {
      const url = new URL(request.url())
      if ((url.protocol === "http:" || url.protocol === "https:") && url.origin !== origin) {
        elsewhere.push(`${request.method()} ${request.url()}`)
      }
    })
    await page.goto(`${server.url}/docs${hash}`)
    await expect.poll(() => page.getByRole("heading", { name: "Forms and artist portal" }).count()).toBeGreaterThan(0)
    return { context, page, elsewhere }
  }

  it("renders offline: no request to another host, and no resource of another host in its HTML or CSS", slow, async () => {
    const { context, page, elsewhere } = await openDocs()
    try {
      // Every group opened, so that the operations, their samples and the models are rendered too.
      for (const group of ["Organiser", "Webhooks", "Models"]) {
        await page.getByText(`Open Group ${group}`, { exact: true }).first().click()
      }
      await page.waitForLoadState("networkidle")
      expect(await externalResources(page)).toEqual([])
      expect(elsewhere).toEqual([])
      // The fonts are the browser's own: none is loaded from anywhere.
      expect(await page.evaluate<number>(`[...document.fonts].filter((font) => font.status !== "unloaded").length`)).toBe(0)
    } finally {
      await context.close()
    }
  })

  it("shows the organiser routes' samples with the bearer key, not Basic credentials", slow, async () => {
    const { context, page, elsewhere } = await openDocs("#tag/organiser/POST/admin/events")
    try {
      await expect.poll(() => curlSamples(page, "/admin/events").then((samples) => samples.length)).toBeGreaterThan(0)
      for (const sample of await curlSamples(page, "/admin/events")) {
        expect(sample).toContain("--header 'Authorization: Bearer ")
        expect(sample).not.toMatch(/--user|Basic /)
      }
      expect(elsewhere).toEqual([])
    } finally {
      await context.close()
    }
  })
})

if (chromiumPath === undefined) {
  describe("the API reference (/docs) in Chromium", () => {
    it.skip(noChromium, () => {})
  })
}
