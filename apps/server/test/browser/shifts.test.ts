import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { Browser, Page } from "playwright-core"
import { chromiumPath, launchChromium, overflow, phone, screenshot, seriousViolations, startServer, targetsBelow24 } from "./browser.js"

// CONTRACT §14, §15: a time-slot field is a list of slots with what remains; a full slot is disabled.
const token = "browser-shifts-0001"
const slow = { timeout: 180_000 }

describe.skipIf(chromiumPath === undefined)("the shift picker of the hosted form page in Chromium", () => {
  let server: Awaited<ReturnType<typeof startServer>>
  let browser: Browser

  const api = async (path: string, body: unknown) => {
    const response = await fetch(`${server.url}/public/forms/${token}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body)
    })
    return { status: response.status, body: (await response.json()) as { data: { id: string } } }
  }

  beforeAll(async () => {
    server = await startServer()
    browser = await launchChromium()
    // Someone else takes the one place of the Gate shift first.
    const created = await api("/submissions", { idempotency_key: crypto.randomUUID(), values: { email: "first@example.org" } })
    const submitted = await api(`/submissions/${created.body.data.id}/submit`, { values: { shifts: ["sl-b-one"] } })
    expect(submitted.status).toBe(200)
    // And the one place of the Parking shift, which has a waitlist.
    const parker = await api("/submissions", { idempotency_key: crypto.randomUUID(), values: { email: "parker@example.org" } })
    expect((await api(`/submissions/${parker.body.data.id}/submit`, { values: { shifts: ["sl-b-wait"] } })).status).toBe(200)
  }, 180_000)
  afterAll(async () => {
    await browser?.close()
    await server?.close()
  }, 60_000)

  const open = async (options: { readonly phone?: boolean } = {}): Promise<{ page: Page; problems: Array<string> }> => {
    const page = await (await browser.newContext(options.phone === true ? phone : {})).newPage()
    const problems: Array<string> = []
    page.on("console", (m) => {
      if (m.type() === "error" && !m.text().startsWith("Failed to load resource")) problems.push(m.text())
    })
    await page.goto(`${server.url}/f/${token}`)
    await expect.poll(() => page.locator("forms-embed h1").textContent()).toBe("Shift sign-up")
    return { page, problems }
  }

  it("lists the slots with the places left, disables a full one, and signs up for a shift", slow, async () => {
    const { page, problems } = await open()
    const gate = page.getByLabel(/^Gate · Fri 20 Aug 2027, 08:00–10:00 · Browser Fest 2027 — Full$/)
    const bar = page.getByLabel(/^Bar · Fri 20 Aug 2027, 10:00–14:00/)
    const cleaning = page.getByLabel(/^Cleaning · Fri 20 Aug 2027, 22:00–02:00/)
    await expect.poll(() => gate.count()).toBe(1)
    expect(await page.locator("forms-embed fieldset.slots legend").textContent()).toContain("Your shifts")
    expect(await page.locator(`forms-embed label[for="${await gate.getAttribute("id")}"]`).textContent()).toContain("Full")
    expect(await gate.isDisabled()).toBe(true)
    expect(await page.locator(`forms-embed label[for="${await bar.getAttribute("id")}"]`).textContent()).toContain("5 places left")
    expect(await bar.isDisabled()).toBe(false)
    // An unlimited slot says nothing about places.
    expect(await page.locator(`forms-embed label[for="${await cleaning.getAttribute("id")}"]`).textContent()).not.toContain("left")
    expect(await seriousViolations(page)).toEqual([])
    await screenshot(page, "shifts-picker")

    await page.getByLabel("Email").fill("ann@example.org")
    await bar.check()
    await cleaning.check()
    await page.getByRole("button", { name: "Submit" }).click()
    await expect.poll(() => page.locator("forms-embed .done").textContent()).toContain("Thank you")
    expect(problems).toEqual([])

    // A new visitor sees one place fewer on the Bar shift.
    const { page: next } = await open()
    const barAgain = next.getByLabel(/^Bar · Fri 20 Aug 2027, 10:00–14:00/)
    await expect.poll(() => barAgain.count()).toBe(1)
    expect(await next.locator(`forms-embed label[for="${await barAgain.getAttribute("id")}"]`).textContent()).toContain("4 places left")
  })

  it("on a 390 px phone: labels name the weekday, the form does not overflow, checkboxes are 24×24 px or more", slow, async () => {
    const { page, problems } = await open({ phone: true })
    const labels = page.locator("forms-embed fieldset.slots label")
    await expect.poll(() => labels.count()).toBe(7)
    expect(await labels.allTextContents()).toEqual([
      "Warm-up · Wed 19 Aug 2020, 08:00–10:00 · Browser Fest 2027 — Sign-up closed",
      "Gate · Fri 20 Aug 2027, 08:00–10:00 · Browser Fest 2027 — Full",
      expect.stringMatching(/^Bar · Fri 20 Aug 2027, 10:00–14:00 · Browser Fest 2027 — \d places? left$/),
      "Cleaning · Fri 20 Aug 2027, 22:00–02:00 · Browser Fest 2027",
      expect.stringMatching(/^Stage · Sat 21 Aug 2027, 14:00–18:00 · Browser Fest 2027 — (\d places? left|Full)$/),
      expect.stringMatching(/^Parking · Tue 24 Aug 2027, 08:00–10:00 · Browser Fest 2027 — Full: join the waitlist( \(\d+ waiting\))?$/),
      expect.stringMatching(/^Teardown · Sun 23 Aug 2099, 08:00–10:00 · Browser Fest 2027 — Sign-up opens \d{1,2} Jan 2099, \d\d:\d\d$/)
    ])
    expect(await overflow(page)).toEqual([])
    // The day and hours wrap as one piece: each is on one line.
    // Browser-side code as a string: this package is typechecked without the DOM library.
    expect(await page.evaluate<ReadonlyArray<number>>(
      `[...document.querySelector("forms-embed").shadowRoot.querySelectorAll("fieldset.slots .slot-when")].map((s) => s.getClientRects().length)`
    )).toEqual([1, 1, 1, 1, 1, 1, 1])
    expect(await targetsBelow24(page)).toEqual([])
    expect(await seriousViolations(page)).toEqual([])
    expect(problems).toEqual([])
  })

  it("a slot whose sign-up is not open is disabled and says why", slow, async () => {
    const { page, problems } = await open()
    const later = page.getByLabel(/^Teardown · /)
    const past = page.getByLabel(/^Warm-up · /)
    await expect.poll(() => later.count()).toBe(1)
    expect(await later.isDisabled()).toBe(true)
    expect(await past.isDisabled()).toBe(true)
    expect(await page.locator(`forms-embed label[for="${await later.getAttribute("id")}"]`).textContent()).toContain("Sign-up opens")
    expect(await page.locator(`forms-embed label[for="${await past.getAttribute("id")}"]`).textContent()).toContain("Sign-up closed")
    // The server refuses it too: rule closed on the field.
    const created = await api("/submissions", { idempotency_key: crypto.randomUUID(), values: { email: "early@example.org" } })
    const refused = await api(`/submissions/${created.body.data.id}/submit`, { values: { shifts: ["sl-b-later"] } })
    expect(refused.status).toBe(422)
    expect(JSON.stringify(refused.body)).toContain("\"rule\":\"closed\"")
    expect(problems).toEqual([])
  })

  it("a full slot with a waitlist is offered as joining the waitlist, and a submit joins it", slow, async () => {
    const { page, problems } = await open()
    const parking = page.getByLabel(/^Parking · /)
    await expect.poll(() => parking.count()).toBe(1)
    const label = async () => page.locator(`forms-embed label[for="${await parking.getAttribute("id")}"]`).textContent()
    expect(await label()).toContain("Full: join the waitlist")
    expect(await parking.isDisabled()).toBe(false)
    await page.getByLabel("Email").fill("wait@example.org")
    await parking.check()
    await page.getByRole("button", { name: "Submit" }).click()
    await expect.poll(() => page.locator("forms-embed .done").textContent()).toContain("Thank you")
    const { page: next } = await open()
    const again = next.getByLabel(/^Parking · /)
    await expect.poll(() => again.count()).toBe(1)
    expect(await next.locator(`forms-embed label[for="${await again.getAttribute("id")}"]`).textContent()).toMatch(/join the waitlist \(\d+ waiting\)/)
    expect(problems).toEqual([])
  })

  it("a submit without a shift names the field; the keyboard alone can pick one", slow, async () => {
    const { page } = await open()
    await page.getByLabel("Email").fill("kim@example.org")
    await page.getByRole("button", { name: "Submit" }).click()
    const bar = page.getByLabel(/^Bar · /)
    await expect.poll(() => bar.getAttribute("aria-invalid")).toBe("true")
    expect(await page.locator(`forms-embed #${await bar.getAttribute("aria-describedby") ?? "none"}`).textContent()).toBe("This field is required.")
    await bar.focus()
    await page.keyboard.press("Space")
    expect(await bar.isChecked()).toBe(true)
    await page.getByRole("button", { name: "Submit" }).click()
    await expect.poll(() => page.locator("forms-embed .done").textContent()).toContain("Thank you")
  })

  it("a place taken while the page is open: the submit answers full beside the field and the list shows it", slow, async () => {
    const { page } = await open()
    const stage = page.getByLabel(/^Stage · Sat 21 Aug 2027, 14:00–18:00/)
    const stageLabel = async () => page.locator(`forms-embed label[for="${await stage.getAttribute("id")}"]`).textContent()
    await expect.poll(stageLabel).toContain("1 place left")
    await page.getByLabel("Email").fill("lee@example.org")
    await stage.check()
    // Someone else takes the last place first.
    const created = await api("/submissions", { idempotency_key: crypto.randomUUID(), values: { email: "fast@example.org" } })
    expect((await api(`/submissions/${created.body.data.id}/submit`, { values: { shifts: ["sl-b-stage"] } })).status).toBe(200)
    await page.getByRole("button", { name: "Submit" }).click()
    await expect.poll(() => stage.getAttribute("aria-invalid")).toBe("true")
    expect(await page.locator(`forms-embed #${await stage.getAttribute("aria-describedby") ?? "none"}`).textContent())
      .toBe("The time slot Stage 2027-08-21 14:00\u201318:00 has no place left.")
    await expect.poll(stageLabel).toContain("Full")
    // Still chosen, so it can be unticked; another shift then signs up.
    expect(await stage.isDisabled()).toBe(false)
    await stage.uncheck()
    await page.getByLabel(/^Cleaning · /).check()
    await page.getByRole("button", { name: "Submit" }).click()
    await expect.poll(() => page.locator("forms-embed .done").textContent()).toContain("Thank you")
  })
})
