/**
 * The browser tests' harness: Debian's Chromium (the `chromium` binary on PATH, never a download) driven by
 * playwright-core, a whole server over this folder's fixture, a second local server as another origin,
 * axe-core, and the screenshots of docs/.
 */
import AxeBuilder from "@axe-core/playwright"
import { Effect, ManagedRuntime } from "effect"
import { accessSync, constants, existsSync, mkdirSync } from "node:fs"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { delimiter, join } from "node:path"
import { fileURLToPath } from "node:url"
import { type Browser, chromium, type Page } from "playwright-core"
import { expect } from "vitest"
import { keyOf } from "../adminSupport.js"
import { baseUrl, testServer } from "../harness.js"

/** The `chromium` binary on PATH, if any. */
export const chromiumPath: string | undefined = (process.env["PATH"] ?? "").split(delimiter)
  .filter((dir) => dir !== "")
  .map((dir) => join(dir, "chromium"))
  .find((file) => {
    try {
      accessSync(file, constants.X_OK)
      return true
    } catch {
      return false
    }
  })

export const noChromium = "skipped: no `chromium` binary on PATH (Debian: apt-get install -y chromium; .ci/run installs it as root)"

// The flags these machines need; playwright adds a fresh temporary --user-data-dir to every launch.
const flags = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync"
]

export const launchChromium = (): Promise<Browser> =>
  chromium.launch({ executablePath: chromiumPath ?? "chromium", headless: true, args: flags, timeout: 60_000 })

const fixture = fileURLToPath(new URL("./fixture.json", import.meta.url))

/**
 * The whole server over the browser fixture, on the embedded database; limits high enough for every test.
 * `apiKey()` makes an organiser key of the fixture's organisation, to check through the API what a page stored.
 */
export const startServer = async () => {
  const runtime = ManagedRuntime.make(
    testServer("embedded", {
      FIXTURE_FILE: fixture,
      SUBMIT_RATE_LIMIT_PER_HOUR: "10000",
      PORTAL_RATE_LIMIT_PER_MINUTE: "10000",
      WRITE_RATE_LIMIT_PER_HOUR: "100000"
    })
  )
  const url = await runtime.runPromise(baseUrl)
  const apiKey = () => runtime.runPromise(Effect.map(keyOf("org-b"), ({ key }) => key))
  return { url, apiKey, close: () => runtime.dispose() }
}

/** How the organiser's page loads the element: the classic tag website builders paste, or a module tag. */
export interface ThirdPartyPage {
  readonly tag: "classic" | "module"
  /** Sets the element's `base-url`; without it the element takes the origin the script was loaded from. */
  readonly baseUrl: boolean
  /** The element's `lang` attribute, when given. */
  readonly lang?: string
}

/** A second origin: a plain page embedding the element from `serviceUrl`, as an organiser's site would. */
export const startThirdPartySite = async (
  serviceUrl: string,
  token: string,
  { baseUrl, lang, tag }: ThirdPartyPage = { tag: "classic", baseUrl: true }
) => {
  const script = tag === "classic"
    ? `<script src="${serviceUrl}/embed.js"></script>`
    : `<script type="module" src="${serviceUrl}/embed.js"></script>`
  const attribute = (baseUrl ? ` base-url="${serviceUrl}"` : "") + (lang === undefined ? "" : ` lang="${lang}"`)
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Our festival</title>
${script}</head>
<body><main><h1>Sign up</h1><forms-embed token="${token}"${attribute}></forms-embed></main></body></html>`
  const server: Server = createServer((_req, res) => {
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" })
    res.end(html)
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as AddressInfo
  return { url: `http://127.0.0.1:${port}/`, close: () => new Promise<void>((resolve) => server.close(() => resolve())) }
}

/** Violations of impact serious or critical (WCAG 2.2 AA as axe-core measures it). */
export const seriousViolations = async (page: Page) => {
  const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]).analyze()
  return results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join("; ")})`)
}

const docs = fileURLToPath(new URL("../../../../docs/", import.meta.url))

/**
 * Writes docs/<name>.png when it is missing or UPDATE_SCREENSHOTS=1: the committed screenshots stay put on
 * ordinary runs (a date on the portal page would change them every day).
 */
export const screenshot = async (page: Page, name: string) => {
  const file = join(docs, `${name}.png`)
  if (existsSync(file) && process.env["UPDATE_SCREENSHOTS"] !== "1") return
  mkdirSync(docs, { recursive: true })
  await page.screenshot({ path: file, fullPage: true })
}

/** A phone's screen: 390 CSS px wide, the page's viewport meta honoured, touch. */
export const phone = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 3 } as const

/**
 * What sticks out sideways: the page scrolling sideways, and every element of the element's shadow root whose
 * box ends past the form's right edge (or starts before its left), as `tag.class: left–right`.
 */
export const overflow = (page: Page): Promise<ReadonlyArray<string>> =>
  // Browser-side code as a string: this package is typechecked without the DOM library.
  page.evaluate<ReadonlyArray<string>>(`(() => {
    const out = []
    const root = document.documentElement
    if (root.scrollWidth > root.clientWidth) out.push("page: " + root.scrollWidth + " > " + root.clientWidth)
    const shadow = document.querySelector("forms-embed").shadowRoot
    const form = shadow.querySelector("form").getBoundingClientRect()
    for (const el of shadow.querySelectorAll("form *")) {
      const box = el.getBoundingClientRect()
      if (box.width === 0) continue
      if (box.right > form.right + 0.5 || box.left < form.left - 0.5) {
        out.push(el.tagName.toLowerCase() + "." + el.className + ": " + Math.round(box.left) + "–" + Math.round(box.right))
      }
    }
    return out
  })()`)

/** Every checkbox and radio of the form smaller than 24×24 CSS px (WCAG 2.2 target size), as `id: w×h`. */
export const targetsBelow24 = async (page: Page): Promise<ReadonlyArray<string>> => {
  const boxes = page.locator("forms-embed input[type=checkbox], forms-embed input[type=radio]")
  expect(await boxes.count()).toBeGreaterThan(0)
  const small: Array<string> = []
  for (const box of await boxes.all()) {
    const size = await box.boundingBox()
    if (size === null || size.width < 24 || size.height < 24) small.push(`${await box.getAttribute("id")}: ${size?.width}×${size?.height}`)
  }
  return small
}

/** The text of the element's live save state. */
export const saveState = (page: Page) => page.locator("forms-embed .state")
