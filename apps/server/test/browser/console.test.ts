import { createServer, request as forward, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { Browser } from "playwright-core"
import { chromiumPath, launchChromium, noChromium, startServer } from "./browser.js"

const slow = { timeout: 180_000 }

/**
 * A pass-through in front of the server that notes each answer it relayed (`status path content-type`): the
 * browser fetches a page's icon on its own, unseen by the page's request events, so this is where it shows.
 */
const startRelay = async (target: string) => {
  const answered: Array<string> = []
  const server: Server = createServer((req, res) => {
    const upstream = forward(`${target}${req.url ?? "/"}`, { method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers)
      answer.pipe(res)
      answer.on("end", () => answered.push(`${answer.statusCode} ${req.url} ${answer.headers["content-type"] ?? ""}`))
    })
    req.pipe(upstream)
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    answered,
    close: () => new Promise<void>((resolve) => server.close(() => resolve()))
  }
}

describe.skipIf(chromiumPath === undefined)("page loads in Chromium", () => {
  let server: Awaited<ReturnType<typeof startServer>>
  let relay: Awaited<ReturnType<typeof startRelay>>
  let browser: Browser

  beforeAll(async () => {
    server = await startServer()
    relay = await startRelay(server.url)
    browser = await launchChromium()
  }, 180_000)
  afterAll(async () => {
    await browser?.close()
    await relay?.close()
    await server?.close()
  }, 60_000)

  // The pages a visitor, an artist and a developer open, and a page's 404: each loads its icon, and logs nothing.
  it.each([
    ["the form page", "/f/browser-simple-0001", 200],
    ["the portal page", "/portal/browser-portal-0001", 200],
    ["a page's 404", "/f/browser-no-such-form", 404],
    ["the API reference", "/docs", 200]
  ] as const)("%s logs no console error, and its icon is the site's SVG", slow, async (_name, path, status) => {
    const context = await browser.newContext()
    try {
      const page = await context.newPage()
      const errors: Array<string> = []
      // A 404 page's own status is logged as a failed load of the document itself: that one is the page's answer.
      const ownStatus = `Failed to load resource: the server responded with a status of ${status} (Not Found) @ ${relay.url}${path}`
      page.on("console", (message) => {
        const logged = `${message.text()} @ ${message.location().url}`
        if (message.type() === "error" && logged !== ownStatus) errors.push(logged)
      })
      page.on("pageerror", (error) => errors.push(error.message))
      const icons = () => relay.answered.filter((line) => line.split(" ")[1] === "/favicon.ico")
      const before = icons().length
      const response = await page.goto(relay.url + path)
      expect(response?.status()).toBe(status)
      // The browser asks for the icon once the page has loaded; its answer is the last thing the page waits for.
      await expect.poll(() => icons().length).toBeGreaterThan(before)
      expect(icons().slice(before)).toEqual(["200 /favicon.ico image/svg+xml"])
      await page.waitForLoadState("networkidle")
      await page.evaluate("document.readyState")
      expect(errors).toEqual([])
    } finally {
      await context.close()
    }
  })
})

if (chromiumPath === undefined) {
  describe("page loads in Chromium", () => {
    it.skip(noChromium, () => {})
  })
}
