import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { Browser, BrowserContext, Page } from "playwright-core"
import {
  chromiumPath,
  launchChromium,
  noChromium,
  screenshot,
  seriousViolations,
  startServer,
  startThirdPartySite
} from "./browser.js"

const slow = { timeout: 180_000 }

describe.skipIf(chromiumPath === undefined)("the portal page and the embedded element in Chromium", () => {
  let server: Awaited<ReturnType<typeof startServer>>
  let browser: Browser
  const contexts: Array<BrowserContext> = []

  beforeAll(async () => {
    server = await startServer()
    browser = await launchChromium()
  }, 180_000)
  afterAll(async () => {
    for (const context of contexts) await context.close()
    await browser?.close()
    await server?.close()
  }, 60_000)

  const newPage = async (): Promise<Page> => {
    const context = await browser.newContext()
    contexts.push(context)
    return context.newPage()
  }

  it("the portal page lists the sections with their statuses and submits a section, errors beside its fields", slow, async () => {
    const page = await newPage()
    const response = await page.goto(server.url + "/portal/browser-portal-0001")
    expect(response?.status()).toBe(200)
    expect(response?.headers()["referrer-policy"]).toBe("no-referrer")
    await expect.poll(() => page.locator("forms-portal h1").textContent()).toBe("The Browser Band")
    expect(await page.locator("forms-portal ul.sections li").allTextContents()).toEqual([
      "Travel: Not submitted yet",
      "Hospitality: Not submitted yet"
    ])
    await expect.poll(() => page.getByLabel("Arrival date").count()).toBe(1)
    expect(await seriousViolations(page)).toEqual([])

    await page.getByRole("button", { name: "Submit Travel" }).click()
    const arrival = page.getByLabel("Arrival date")
    await expect.poll(() => arrival.getAttribute("aria-invalid")).toBe("true")
    const errorId = await arrival.getAttribute("aria-describedby")
    expect(await page.locator(`forms-portal #${errorId ?? "none"}`).textContent()).toBe("This field is required.")
    expect(await page.evaluate<string | null>(`document.querySelector("forms-portal")?.shadowRoot?.activeElement?.id ?? null`))
      .toBe(await arrival.getAttribute("id"))

    await arrival.fill("2027-08-19")
    await page.getByLabel("Travel notes").fill("By train <b>late</b>")
    await page.getByRole("button", { name: "Submit Travel" }).click()
    await expect.poll(() => page.locator("forms-portal ul.sections li").first().textContent()).toMatch(/^Travel: Submitted on \d{4}-\d{2}-\d{2}$/)
    expect(await arrival.getAttribute("aria-invalid")).toBeNull()
    expect(await seriousViolations(page)).toEqual([])
    await screenshot(page, "portal")

    // A reload shows the submitted status and the section's draft values.
    await page.reload()
    await expect.poll(() => page.getByLabel("Travel notes").inputValue()).toBe("By train <b>late</b>")
    expect(await page.getByLabel("Arrival date").inputValue()).toBe("2027-08-19")
    expect(await page.locator("forms-portal ul.sections li").first().textContent()).toMatch(/^Travel: Submitted on /)
  })

  it("the portal page shows due dates, marks overdue sections and shows a locked one read-only", slow, async () => {
    const key = await server.apiKey()
    const admin = async (method: string, path: string, body?: unknown) => {
      const response = await fetch(`${server.url}${path}`, {
        method,
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        ...(body === undefined ? {} : { body: JSON.stringify(body) })
      })
      expect(response.status, path).toBeLessThan(300)
      return ((await response.json()) as { data: Record<string, any> }).data
    }
    const engagement = await admin("POST", "/admin/engagements", {
      event_id: "ev-b",
      master_artist_id: "ma-b",
      advance_sections: [
        { name: "Travel", position: 1, due_at: "2020-01-02T10:00:00Z" },
        { name: "Hospitality", position: 2, due_at: "2099-03-04T10:00:00Z", locked: true }
      ]
    })
    const link = await admin("POST", `/admin/engagements/${engagement["id"]}/portal-link`)
    const page = await newPage()
    await page.goto(String(link["page_url"]))
    await expect.poll(() => page.locator("forms-portal ul.sections li").allTextContents()).toEqual([
      "Travel: Not submitted yet (due 2020-01-02) Overdue",
      "Hospitality: Not submitted yet (due 2099-03-04) Locked"
    ])
    await expect.poll(() => page.getByLabel("Dietary wishes").count()).toBe(1)
    // The locked section: its values shown, nothing to change or send; the keyboard skips its fields.
    expect(await page.getByLabel("Dietary wishes").isDisabled()).toBe(true)
    expect(await page.getByRole("button", { name: "Submit Hospitality" }).count()).toBe(0)
    expect(await page.locator("forms-portal section").nth(1).textContent()).toContain("Locked: the organiser no longer takes changes")
    expect(await page.getByLabel("Arrival date").isDisabled()).toBe(false)
    expect(await seriousViolations(page)).toEqual([])

    // Locked while the page is open: the submit is refused and the section turns read-only.
    const travel = (engagement["advance_sections"] as ReadonlyArray<Record<string, string>>)[0]?.["id"] ?? ""
    await admin("PATCH", `/admin/engagements/${engagement["id"]}/sections/${travel}`, { locked: true })
    await page.getByLabel("Arrival date").fill("2027-08-19")
    await page.getByRole("button", { name: "Submit Travel" }).click()
    await expect.poll(() => page.getByRole("button", { name: "Submit Travel" }).count()).toBe(0)
    expect(await page.getByLabel("Arrival date").isDisabled()).toBe(true)
    expect(await page.locator("forms-portal ul.sections li").first().textContent())
      .toBe("Travel: Not submitted yet (due 2020-01-02) Overdue Locked")
    expect(await seriousViolations(page)).toEqual([])
    await screenshot(page, "portal-locked")
  })

  it("the portal page autosaves a half-filled section after a pause, at most once per 5 seconds, and a reload resumes it", slow, async () => {
    const key = await server.apiKey()
    const created = await fetch(`${server.url}/admin/engagements`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ event_id: "ev-b", master_artist_id: "ma-b", advance_sections: [{ name: "Travel", position: 1 }] })
    })
    const engagement = ((await created.json()) as { data: { id: string } }).data
    const linked = await fetch(`${server.url}/admin/engagements/${engagement.id}/portal-link`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}` }
    })
    const link = ((await linked.json()) as { data: { page_url: string } }).data
    const page = await newPage()
    const puts: Array<string> = []
    page.on("request", (r) => {
      if (r.method() === "PUT") puts.push(r.postData() ?? "")
    })
    await page.goto(link.page_url)
    const notes = page.getByLabel("Travel notes")
    await expect.poll(() => notes.count()).toBe(1)
    // Typed in bursts: the first save follows the pause, the next one waits out the 5 seconds.
    await notes.pressSequentially("By train", { delay: 20 })
    await expect.poll(() => page.locator("forms-portal section [role=status]").textContent(), { timeout: 10_000 }).toBe("Saved")
    expect(puts).toEqual([JSON.stringify({ values: { travel_notes: "By train" } })])
    await notes.pressSequentially(", then a bus", { delay: 20 })
    await page.waitForTimeout(2000)
    expect(puts).toHaveLength(1)
    await expect.poll(() => puts.length, { timeout: 10_000 }).toBe(2)
    await expect.poll(() => page.locator("forms-portal section [role=status]").textContent()).toBe("Saved")
    expect(await seriousViolations(page)).toEqual([])
    // The required arrival date is still empty: the section is saved, not submitted, and a reload resumes it.
    await page.reload()
    await expect.poll(() => page.getByLabel("Travel notes").inputValue()).toBe("By train, then a bus")
    expect(await page.locator("forms-portal ul.sections li").first().textContent()).toBe("Travel: Not submitted yet")
  })

  it("the element on a page of another origin, loaded by the classic <script src> tag, completes a submission through CORS", slow, async () => {
    const site = await startThirdPartySite(server.url, "browser-simple-0001", { tag: "classic", baseUrl: true })
    try {
      const page = await newPage()
      const errors: Array<string> = []
      page.on("pageerror", (error) => errors.push(error.message))
      const crossOrigin: Array<string> = []
      page.on("response", (r) => {
        if (r.url().startsWith(server.url)) crossOrigin.push(`${r.request().method()} ${r.headers()["access-control-allow-origin"] ?? "none"}`)
      })
      await page.goto(site.url)
      expect(new URL(page.url()).origin).not.toBe(new URL(server.url).origin)
      await expect.poll(() => page.locator("forms-embed h1").textContent()).toBe("Newsletter sign-up")
      await page.getByLabel("Your name").fill("Cross Origin")
      await page.getByLabel("Email").fill("cors@example.org")
      await page.getByRole("button", { name: "Submit" }).click()
      await expect.poll(() => page.locator("forms-embed .done").textContent()).toContain("Thank you")
      // The script, the form, the create, the save and the submit all crossed origins, each allowed by `*`.
      expect(crossOrigin.filter((r) => r.endsWith(" *")).length).toBeGreaterThanOrEqual(4)
      expect(crossOrigin.filter((r) => r.endsWith(" none") && !r.startsWith("OPTIONS"))).toEqual([])
      expect(errors).toEqual([])
    } finally {
      await site.close()
    }
  })

  // Without base-url the element calls the origin its script came from: the classic tag's `document.currentScript`,
  // the module tag's <script> element (a module has no currentScript).
  it.each(["classic", "module"] as const)("the %s tag without base-url renders the form of the script's origin", async (tag) => {
    const site = await startThirdPartySite(server.url, "browser-simple-0001", { tag, baseUrl: false })
    try {
      const page = await newPage()
      const errors: Array<string> = []
      page.on("pageerror", (error) => errors.push(error.message))
      await page.goto(site.url)
      await expect.poll(() => page.locator("forms-embed h1").textContent()).toBe("Newsletter sign-up")
      expect(await page.evaluate<boolean>(`customElements.get("forms-portal") !== undefined`)).toBe(true)
      expect(errors).toEqual([])
    } finally {
      await site.close()
    }
  }, 180_000)

  it("the element is themed by CSS custom properties set on the host page", slow, async () => {
    const page = await newPage()
    await page.goto(server.url + "/f/browser-simple-0001")
    await expect.poll(() => page.getByRole("button", { name: "Submit" }).count()).toBe(1)
    // Browser-side code as strings: this package is typechecked without the DOM library.
    const background = () =>
      page.evaluate<string>(`getComputedStyle(document.querySelector("forms-embed").shadowRoot.querySelector("button")).backgroundColor`)
    expect(await background()).toBe("rgb(29, 78, 216)")
    await page.evaluate(`document.querySelector("forms-embed").style.setProperty("--forms-accent", "rgb(0, 100, 0)")`)
    expect(await background()).toBe("rgb(0, 100, 0)")
  })

  it("the portal page of an unknown token is the 404 page, with no serious axe violation", slow, async () => {
    const page = await newPage()
    const missing = await page.goto(server.url + "/portal/browser-no-such-portal")
    expect(missing?.status()).toBe(404)
    expect(await page.locator("h1").textContent()).toBe("Portal not found")
    expect(await seriousViolations(page)).toEqual([])
  })
})

if (chromiumPath === undefined) {
  describe("the portal page and the embedded element in Chromium", () => {
    it.skip(noChromium, () => {})
  })
}
