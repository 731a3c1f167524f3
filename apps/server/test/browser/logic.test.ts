/**
 * Form logic in the hosted page (CONTRACT §18), in Chromium: answering "yes" shows the dependent field, "no"
 * hides it (out of view, the tab order and the accessibility tree) and a submit succeeds without it; a section
 * with no active field is hidden; help texts describe their controls; no serious or critical axe violation in
 * either state; values prefilled from the page address for a new draft, sent with its create.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { Browser, Page } from "playwright-core"
import { chromiumPath, launchChromium, noChromium, seriousViolations, startServer } from "./browser.js"

const slow = { timeout: 180_000 }
const path = "/f/browser-logic-0001"

describe.skipIf(chromiumPath === undefined)("form logic on the hosted form page in Chromium", () => {
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

  const open = async (query = ""): Promise<{ page: Page; problems: Array<string> }> => {
    const context = await browser.newContext()
    const page = await context.newPage()
    const problems: Array<string> = []
    page.on("console", (m) => {
      if (m.type() === "error" && !m.text().startsWith("Failed to load resource")) problems.push(m.text())
    })
    page.on("response", (r) => {
      if (r.status() >= 400) problems.push(`${r.status()} ${r.url()}`)
    })
    await page.goto(server.url + path + query)
    await expect.poll(() => page.locator("forms-embed h1").textContent()).toBe("Drivers")
    return { page, problems }
  }

  it("yes shows the dependent field, no hides it, and a submit without it succeeds; axe clean in both states", slow, async () => {
    const { page, problems } = await open()
    const categories = page.getByRole("group", { name: "Which categories?" })
    // Inactive: not shown, not in the accessibility tree, the car section hidden with it.
    await expect.poll(() => categories.count()).toBe(0)
    expect(await page.locator("forms-embed fieldset", { hasText: "Your car" }).isVisible()).toBe(false)
    expect(await page.locator("forms-embed [data-slug=ref]").isVisible()).toBe(false)
    expect(await seriousViolations(page)).toEqual([])

    await page.getByLabel("yes").check()
    await expect.poll(() => categories.isVisible()).toBe(true)
    // The help is under the legend and describes the group.
    expect(await categories.getAttribute("aria-describedby")).toMatch(/-help$/)
    expect(await page.getByText("Tick every category on your licence.").isVisible()).toBe(true)
    await page.getByLabel("B", { exact: true }).check()
    await expect.poll(() => page.getByLabel("Number plate").isVisible()).toBe(true)
    expect(await page.getByLabel("Number plate").getAttribute("aria-describedby")).toMatch(/-help$/)
    expect(await seriousViolations(page)).toEqual([])

    // No: the categories and the car section go away; what was ticked is sent and dropped by the server.
    await page.getByLabel("no", { exact: true }).check()
    await expect.poll(() => categories.count()).toBe(0)
    expect(await page.getByLabel("Number plate").isVisible()).toBe(false)
    expect(await seriousViolations(page)).toEqual([])
    await page.getByLabel("Email").fill("ann@example.org")
    const submitted = page.waitForResponse((r) => new URL(r.url()).pathname.endsWith("/submit"))
    await page.getByRole("button", { name: "Submit" }).click()
    const answer = await submitted
    expect(answer.status()).toBe(200)
    const values = ((await answer.json()) as { data: { values: Record<string, unknown> } }).data.values
    // The element sends every field (the hidden one as null); the inactive ones ticked above are not stored.
    expect(values).toEqual({ email: "ann@example.org", licence: "no", ref: null })
    await expect.poll(() => page.getByText("Thank you! Your answers have been received.").isVisible()).toBe(true)
    expect(problems).toEqual([])
  })

  it("prefills a new draft from the page address (lang and unknown names ignored), sent with its create", slow, async () => {
    const context = await browser.newContext()
    const page = await context.newPage()
    const created = page.waitForRequest((r) => new URL(r.url()).pathname.endsWith("/submissions") && r.method() === "POST")
    await page.goto(`${server.url}${path}?email=ann%40example.org&licence=yes&categories=A&categories=B&ref=newsletter&lang=nl&other=1`)
    const body = (await created).postDataJSON() as { values?: Record<string, unknown> }
    expect(body.values).toEqual({ email: "ann@example.org", licence: "yes", categories: ["A", "B"], ref: "newsletter" })
    await expect.poll(() => page.getByLabel("Email").inputValue()).toBe("ann@example.org")
    expect(await page.getByLabel("A", { exact: true }).isChecked()).toBe(true)
    expect(await page.getByRole("group", { name: "Which categories?" }).isVisible()).toBe(true)
  })

  it("a prefilled value the create refuses: the draft is created again without it, and it is shown with its message", slow, async () => {
    const context = await browser.newContext()
    const page = await context.newPage()
    const creates: Array<unknown> = []
    page.on("request", (r) => {
      if (new URL(r.url()).pathname.endsWith("/submissions") && r.method() === "POST") creates.push(r.postDataJSON())
    })
    await page.goto(`${server.url}${path}?email=not-an-email&licence=yes`)
    await expect.poll(() => page.getByText("Must be a valid email address.").isVisible()).toBe(true)
    expect(await page.getByLabel("Email").inputValue()).toBe("not-an-email")
    expect(await page.getByLabel("Email").getAttribute("aria-invalid")).toBe("true")
    expect(creates.map((body) => (body as { values?: object }).values)).toEqual([
      { email: "not-an-email", licence: "yes" },
      { licence: "yes" }
    ])
  })
})

if (chromiumPath === undefined) {
  describe("form logic on the hosted form page in Chromium", () => {
    it.skip(noChromium, () => {})
  })
}
