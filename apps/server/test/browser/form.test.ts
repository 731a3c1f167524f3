import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { Browser, BrowserContext, Page } from "playwright-core"
import {
  chromiumPath,
  launchChromium,
  noChromium,
  overflow,
  phone,
  saveState,
  screenshot,
  seriousViolations,
  startServer,
  targetsBelow24
} from "./browser.js"

const allFields = "/f/browser-all-fields-0001"
const simple = "/f/browser-simple-0001"
const slow = { timeout: 180_000 }

describe.skipIf(chromiumPath === undefined)("the hosted form page in Chromium", () => {
  let server: Awaited<ReturnType<typeof startServer>>
  let browser: Browser
  const contexts: Array<BrowserContext> = []

  beforeAll(async () => {
    server = await startServer()
    browser = await launchChromium()
  }, 180_000)
  afterAll(async () => {
    await browser?.close()
    await server?.close()
  }, 60_000)

  const open = async (
    path: string,
    options: { readonly phone?: boolean } = {}
  ): Promise<{ context: BrowserContext; page: Page; problems: Array<string> }> => {
    const context = await browser.newContext(options.phone === true ? phone : {})
    contexts.push(context)
    const page = await context.newPage()
    const problems: Array<string> = []
    // Any console error (a CSP refusal among them) and any failed request, the browser's favicon probe included.
    page.on("console", (m) => {
      if (m.type() === "error" && !m.text().startsWith("Failed to load resource")) problems.push(m.text())
    })
    page.on("response", (r) => {
      if (r.status() >= 400) problems.push(`${r.status()} ${r.url()}`)
    })
    page.on("dialog", (d) => {
      problems.push(`dialog: ${d.message()}`)
      void d.dismiss()
    })
    await page.goto(server.url + path)
    return { context, page, problems }
  }

  it("fills every field type, autosaves after a pause, and resumes every value after a reload", slow, async () => {
    const { page, problems } = await open(allFields)
    await expect.poll(() => page.locator("forms-embed h1").textContent()).toBe("Volunteers 2027")
    // Sections are fieldsets with their legends; labels are bound to their controls.
    expect(await page.locator("forms-embed form > fieldset > legend").allTextContents()).toEqual(["About you", "Helping"])
    await screenshot(page, "form-empty")
    const saved = page.waitForRequest((r) => r.url().includes("/submissions") && r.method() !== "GET")
    await page.getByLabel("Full name").fill("Ann Example")
    await saved
    await expect.poll(() => saveState(page).textContent()).toBe("Saved")
    await page.getByLabel("Email").fill("ann@example.org")
    await page.getByLabel("Phone").fill("+31 6 1234 5678")
    await page.getByLabel("Date of birth").fill("1990-04-01")
    await page.getByLabel("Website").fill("https://ann.example.org")
    await page.getByLabel("Shirt size").selectOption("M")
    await page.getByLabel("stage").check()
    await page.getByLabel("bar").check()
    await page.getByLabel("Night").check()
    await page.getByLabel("Hours per day").fill("6")
    await page.getByLabel("I have a driving licence").check()
    await page.getByLabel("Why do you want to help?").fill("Music <3")
    await expect.poll(() => saveState(page).textContent()).toBe("Saved")
    await page.waitForTimeout(1_500)
    await expect.poll(() => saveState(page).textContent()).toBe("Saved")
    await page.reload()
    await expect.poll(() => page.getByLabel("Full name").inputValue()).toBe("Ann Example")
    await expect.poll(() => page.getByLabel("Email").inputValue()).toBe("ann@example.org")
    await expect.poll(() => page.getByLabel("Phone").inputValue()).toBe("+31 6 1234 5678")
    await expect.poll(() => page.getByLabel("Date of birth").inputValue()).toBe("1990-04-01")
    await expect.poll(() => page.getByLabel("Website").inputValue()).toBe("https://ann.example.org")
    await expect.poll(() => page.getByLabel("Shirt size").inputValue()).toBe("M")
    await expect.poll(() => page.getByLabel("stage").isChecked()).toBe(true)
    await expect.poll(() => page.getByLabel("bar").isChecked()).toBe(true)
    expect(await page.getByLabel("cleaning").isChecked()).toBe(false)
    await expect.poll(() => page.getByLabel("Night").isChecked()).toBe(true)
    await expect.poll(() => page.getByLabel("Hours per day").inputValue()).toBe("6")
    await expect.poll(() => page.getByLabel("I have a driving licence").isChecked()).toBe(true)
    await expect.poll(() => page.getByLabel("Why do you want to help?").inputValue()).toBe("Music <3")
    expect(problems).toEqual([])
  })

  it("on a 390 px phone every field fits the width and every checkbox and radio is 24×24 px or more", slow, async () => {
    const { page, problems } = await open(allFields, { phone: true })
    await expect.poll(() => page.getByLabel("Night").count()).toBe(1)
    expect(await overflow(page)).toEqual([])
    expect(await targetsBelow24(page)).toEqual([])
    expect(await seriousViolations(page)).toEqual([])
    expect(problems).toEqual([])
  })

  /** The id of the element focused inside the form's shadow root. */
  // Browser-side code as strings: this package is typechecked without the DOM library.
  const focusedId = (page: Page) =>
    page.evaluate<string | null>(`document.querySelector("forms-embed")?.shadowRoot?.activeElement?.id ?? null`)

  it("submit with errors shows them beside their fields (aria-invalid, aria-describedby, focus on the first); fixed, it confirms", slow, async () => {
    const { page, problems } = await open(allFields)
    expect(await seriousViolations(page)).toEqual([])
    await page.getByLabel("Full name").fill("A")
    await page.getByLabel("Website").fill("not a url")
    await page.getByRole("button", { name: "Submit" }).click()
    await expect.poll(() => page.locator("forms-embed [role=alert]").first().textContent()).toContain("please correct the marked fields")
    const name = page.getByLabel("Full name")
    expect(await name.getAttribute("aria-invalid")).toBe("true")
    const described = await name.getAttribute("aria-describedby")
    expect(await page.locator(`forms-embed #${described ?? "none"}`).textContent()).toMatch(/\S/)
    expect(await page.getByLabel("Website").getAttribute("aria-invalid")).toBe("true")
    expect(await page.getByLabel("Phone").getAttribute("aria-invalid")).toBeNull()
    // Every problem at once: the required fields never filled are marked in the same round.
    expect(await page.getByLabel("Email").getAttribute("aria-invalid")).toBe("true")
    expect(await page.getByLabel("Shirt size").getAttribute("aria-invalid")).toBe("true")
    expect(await focusedId(page)).toBe(await name.getAttribute("id"))
    expect(await seriousViolations(page)).toEqual([])

    // Fixed in part: the submit names what is still missing.
    await name.fill("Ann Example")
    await page.getByLabel("Website").fill("https://ann.example.org")
    await page.getByRole("button", { name: "Submit" }).click()
    const email = page.getByLabel("Email")
    await expect.poll(() => email.getAttribute("aria-invalid")).toBe("true")
    expect(await page.getByLabel("Shirt size").getAttribute("aria-invalid")).toBe("true")
    expect(await name.getAttribute("aria-invalid")).toBeNull()
    expect(await page.locator(`forms-embed #${await email.getAttribute("aria-describedby") ?? "none"}`).textContent()).toBe("This field is required.")
    expect(await focusedId(page)).toBe(await email.getAttribute("id"))
    expect(await seriousViolations(page)).toEqual([])
    await screenshot(page, "form-errors")

    await email.fill("ann@example.org")
    await page.getByLabel("Shirt size").selectOption("L")
    await page.getByRole("button", { name: "Submit" }).click()
    await expect.poll(() => page.locator("forms-embed .done").textContent()).toContain("Thank you")
    expect(await seriousViolations(page)).toEqual([])
    await screenshot(page, "form-confirmed")
    // A reload replays the create: the submitted submission, so the confirmation again.
    await page.reload()
    await expect.poll(() => page.locator("forms-embed .done").textContent()).toContain("already sent")
    expect(problems.filter((p) => !/^422 /.test(p))).toEqual([])
  })

  it("a pattern's own message (regex_message) is shown beside its field instead of the default one", slow, async () => {
    const { page, problems } = await open("/f/browser-regex-0001")
    const code = page.getByLabel("Member code")
    await code.fill("ab-12")
    await page.getByRole("button", { name: "Submit" }).click()
    await expect.poll(() => code.getAttribute("aria-invalid")).toBe("true")
    expect(await page.locator(`forms-embed #${await code.getAttribute("aria-describedby") ?? "none"}`).textContent())
      .toBe("Two capital letters, a dash and four digits, like AB-1234.")
    await code.fill("AB-1234")
    await page.getByRole("button", { name: "Submit" }).click()
    await expect.poll(() => page.locator("forms-embed .done").textContent()).toContain("Thank you")
    expect(problems.filter((p) => !/^422 /.test(p))).toEqual([])
  })

  it("after a submit, \"Fill in another response\" starts a fresh draft under a new key; both submissions are stored", slow, async () => {
    const { page, problems } = await open(simple)
    const storedKey = () =>
      page.evaluate<string | null>(`localStorage.getItem(${JSON.stringify(`forms-embed:${server.url}:browser-simple-0001`)})`)
    await page.getByLabel("Your name").fill("First Desk")
    await page.getByLabel("Email").fill("desk-first@example.org")
    await page.getByRole("button", { name: "Submit" }).click()
    await expect.poll(() => page.locator("forms-embed .done").textContent()).toContain("Thank you")
    const firstKey = await storedKey()
    expect(firstKey).toMatch(/\S/)
    const another = page.getByRole("button", { name: "Fill in another response" })
    expect(await another.count()).toBe(1)
    expect(await seriousViolations(page)).toEqual([])

    await another.click()
    const name = page.getByLabel("Your name")
    await expect.poll(() => name.count()).toBe(1)
    expect(await name.inputValue()).toBe("")
    expect(await page.getByLabel("Email").inputValue()).toBe("")
    await expect.poll(() => focusedId(page)).toBe(await name.getAttribute("id"))
    expect(await seriousViolations(page)).toEqual([])
    await name.fill("Second Desk")
    await page.getByLabel("Email").fill("desk-second@example.org")
    await page.getByRole("button", { name: "Submit" }).click()
    await expect.poll(() => page.locator("forms-embed .done").textContent()).toContain("Thank you")
    const secondKey = await storedKey()
    expect(secondKey).toMatch(/\S/)
    expect(secondKey).not.toBe(firstKey)
    // A reload replays the second key: its confirmation, with the button again.
    await page.reload()
    await expect.poll(() => page.locator("forms-embed .done").textContent()).toContain("already sent")
    expect(await page.getByRole("button", { name: "Fill in another response" }).count()).toBe(1)
    expect(problems).toEqual([])

    // Two submissions, not one overwritten: the organiser's list has both.
    const response = await fetch(`${server.url}/admin/forms/fs-simple/submissions?status=submitted&limit=100`, {
      headers: { authorization: `Bearer ${await server.apiKey()}` }
    })
    expect(response.status).toBe(200)
    const listed = ((await response.json()) as { data: ReadonlyArray<{ id: string; values: Record<string, unknown> }> }).data
    const desk = listed.filter((s) => String(s.values["email"]).startsWith("desk-"))
    expect(desk.map((s) => s.values["email"]).sort()).toEqual(["desk-first@example.org", "desk-second@example.org"])
    expect(new Set(desk.map((s) => s.id)).size).toBe(2)
  })

  it("an autosave holds back a value the relaxed rules refuse, marks it and saves the others; corrected, it is saved", slow, async () => {
    const { page, problems } = await open(allFields)
    await page.getByLabel("Full name").fill("Ann Example")
    const hours = page.getByLabel("Hours per day")
    await hours.fill("50")
    await expect.poll(() => saveState(page).textContent()).toBe("Saved, except the marked fields")
    expect(await hours.getAttribute("aria-invalid")).toBe("true")
    expect(await page.locator(`forms-embed #${await hours.getAttribute("aria-describedby") ?? "none"}`).textContent()).toMatch(/\S/)
    expect(await page.getByLabel("Full name").getAttribute("aria-invalid")).toBeNull()
    expect(await seriousViolations(page)).toEqual([])
    // The name was saved without the refused value: a reload resumes it, and the hours are empty.
    await page.reload()
    await expect.poll(() => page.getByLabel("Full name").inputValue()).toBe("Ann Example")
    expect(await hours.inputValue()).toBe("")
    await hours.fill("5")
    await expect.poll(() => saveState(page).textContent()).toBe("Saved")
    expect(await hours.getAttribute("aria-invalid")).toBeNull()
    await page.reload()
    await expect.poll(() => hours.inputValue()).toBe("5")
    expect(problems.filter((p) => !/^422 /.test(p))).toEqual([])
  })

  it("two tabs on one draft: the second resumes the first's values; after one submits, the other says so", slow, async () => {
    const { context, page: first } = await open(simple)
    await first.getByLabel("Your name").fill("Two Tabs")
    await expect.poll(() => saveState(first).textContent()).toBe("Saved")
    const second = await context.newPage()
    await second.goto(server.url + simple)
    await expect.poll(() => second.getByLabel("Your name").inputValue()).toBe("Two Tabs")
    await second.getByLabel("Email").fill("tabs@example.org")
    await expect.poll(() => saveState(second).textContent()).toBe("Saved")
    await second.getByRole("button", { name: "Submit" }).click()
    await expect.poll(() => second.locator("forms-embed .done").textContent()).toContain("Thank you")
    // The first tab's next save meets the submitted draft (409): it shows the confirmation, no second submission.
    await first.getByLabel("Your name").fill("Two Tabs again")
    await expect.poll(() => first.locator("forms-embed .done").textContent()).toContain("already sent")
  })

  it("offline, a save says so and retries; online again, it is saved and survives a reload", slow, async () => {
    const { context, page } = await open(simple)
    await page.getByLabel("Your name").fill("Off Line")
    await expect.poll(() => saveState(page).textContent()).toBe("Saved")
    await context.setOffline(true)
    await page.getByLabel("Email").fill("offline@example.org")
    await expect.poll(() => saveState(page).textContent(), { timeout: 15_000 }).toBe("Offline — will retry")
    await context.setOffline(false)
    await expect.poll(() => saveState(page).textContent(), { timeout: 40_000 }).toBe("Saved")
    await page.reload()
    await expect.poll(() => page.getByLabel("Email").inputValue()).toBe("offline@example.org")
  })

  it("an edit is saved when the tab is closed before the autosave pause ends (pagehide, keepalive)", slow, async () => {
    const { context, page } = await open(simple)
    await page.getByLabel("Your name").fill("Closing Soon")
    await expect.poll(() => saveState(page).textContent()).toBe("Saved")
    await page.getByLabel("Email").fill("closed-tab@example.org")
    await page.close({ runBeforeUnload: true })
    const again = await context.newPage()
    await again.goto(server.url + simple)
    await expect.poll(async () => {
      await again.reload()
      await expect.poll(() => again.getByLabel("Your name").inputValue()).toBe("Closing Soon")
      return again.getByLabel("Email").inputValue()
    }, { timeout: 20_000 }).toBe("closed-tab@example.org")
  })

  it("a 429 on submit shows its wait, a 503 asks to retry, a 409 FORM_CLOSED shows the closed notice", slow, async () => {
    const { page } = await open(simple)
    await page.getByLabel("Your name").fill("Refused Often")
    await page.getByLabel("Email").fill("refused@example.org")
    await expect.poll(() => saveState(page).textContent()).toBe("Saved")
    const answers = [
      { status: 429, code: "RATE_LIMITED", headers: { "retry-after": "120" }, expected: "Try again in 2 minutes." },
      { status: 503, code: "UNAVAILABLE", headers: {}, expected: "please try again in a moment" },
      { status: 409, code: "FORM_CLOSED", headers: {}, expected: "This form is closed" }
    ]
    for (const answer of answers) {
      await page.route("**/submit?*", (route) =>
        route.fulfill({
          status: answer.status,
          headers: { ...answer.headers, "access-control-allow-origin": "*" },
          contentType: "application/json",
          body: JSON.stringify({ error: { code: answer.code, message: "x" } })
        }))
      await page.getByRole("button", { name: "Submit" }).click()
      await expect.poll(() => page.locator("forms-embed [role=alert]").first().textContent()).toContain(answer.expected)
      await page.unroute("**/submit?*")
    }
  })

  it("can be completed with the keyboard alone", slow, async () => {
    const { page } = await open(simple)
    await expect.poll(() => page.getByLabel("Your name").count()).toBe(1)
    await page.keyboard.press("Tab")
    expect(await focusedId(page)).toBe(await page.getByLabel("Your name").getAttribute("id"))
    await page.keyboard.type("Key Board")
    await page.keyboard.press("Tab")
    await page.keyboard.type("keys@example.org")
    await page.keyboard.press("Tab")
    await page.keyboard.press("Enter")
    await expect.poll(() => page.locator("forms-embed .done").textContent()).toContain("Thank you")
  })

  it("a label, a section, an option and a value of <img src=x onerror=alert(1)> stay text", slow, async () => {
    const payload = "<img src=x onerror=alert(1)>"
    const { page, problems } = await open("/f/browser-xss-0001")
    await expect.poll(() => page.locator("forms-embed h1").textContent()).toBe(payload)
    expect(await page.title()).toBe(payload)
    expect(await page.locator("forms-embed legend").first().textContent()).toBe(payload)
    await page.getByLabel(payload, { exact: true }).fill(payload)
    await expect.poll(() => saveState(page).textContent()).toBe("Saved")
    await page.reload()
    await expect.poll(() => page.getByLabel(payload, { exact: true }).inputValue()).toBe(payload)
    expect(await page.locator("forms-embed option").nth(1).textContent()).toBe(payload)
    const images = await page.evaluate<number>(
      `document.querySelectorAll("img").length + (document.querySelector("forms-embed")?.shadowRoot?.querySelectorAll("img").length ?? 0)`
    )
    expect(images).toBe(0)
    expect(problems).toEqual([])
  })

  it("a closed form shows the closed notice, an unknown token the 404 page", slow, async () => {
    const { page } = await open("/f/browser-closed-0001")
    await expect.poll(() => page.locator("forms-embed [role=alert]").textContent()).toContain("closed")
    const missing = await page.goto(server.url + "/f/browser-no-such-token")
    expect(missing?.status()).toBe(404)
    expect(await page.locator("h1").textContent()).toBe("Form not found")
  })
})

if (chromiumPath === undefined) {
  describe("the hosted form page in Chromium", () => {
    it.skip(noChromium, () => {})
  })
}
