/**
 * Languages on the hosted form page and the element (CONTRACT §19), in Chromium: the page in Dutch by
 * Accept-Language with `<html lang="nl">`, switched to English and back with the draft's values kept (the page's
 * language and address follow, the draft records the chosen language); the page in German; the element with
 * `lang="de"` on another origin; a refusal's messages in the page's language; no serious or critical axe violation.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { Browser, Page } from "playwright-core"
import { chromiumPath, launchChromium, noChromium, seriousViolations, startServer, startThirdPartySite } from "./browser.js"

const slow = { timeout: 180_000 }
const token = "browser-languages-0001"
const path = `/f/${token}`

describe.skipIf(chromiumPath === undefined)("languages on the hosted form page and the element in Chromium", () => {
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

  const open = async (locale: string, url: string, heading: string): Promise<{ page: Page; problems: Array<string> }> => {
    const context = await browser.newContext({ locale })
    const page = await context.newPage()
    const problems: Array<string> = []
    page.on("console", (m) => {
      if (m.type() === "error" && !m.text().startsWith("Failed to load resource")) problems.push(m.text())
    })
    page.on("response", (r) => {
      if (r.status() >= 400 && r.status() !== 422) problems.push(`${r.status()} ${r.url()}`)
    })
    await page.goto(url)
    await expect.poll(() => page.locator("forms-embed h1").textContent()).toBe(heading)
    return { page, problems }
  }

  const htmlLang = (page: Page) => page.evaluate<string>("document.documentElement.lang")
  const saved = (page: Page) => expect.poll(() => page.locator("forms-embed .state").textContent(), { timeout: 15_000 }).toBe("Saved")

  it("Dutch by Accept-Language, switched to English and back with the draft's values kept; axe clean in each", slow, async () => {
    const { page, problems } = await open("nl-BE", server.url + path, "Aanmelding crew")
    expect(await htmlLang(page)).toBe("nl")
    expect(await page.getByLabel("Je naam").isVisible()).toBe(true)
    const language = page.getByRole("combobox", { name: /Language/ })
    expect(await language.inputValue()).toBe("nl")
    expect(await language.locator("option").allTextContents()).toEqual(["Nederlands", "English", "Deutsch"])
    expect(await seriousViolations(page)).toEqual([])

    await page.getByLabel("Je naam").fill("Ada")
    await page.getByLabel("Shirtmaat").selectOption("m")
    await saved(page)

    await language.selectOption("en")
    await expect.poll(() => page.locator("forms-embed h1").textContent()).toBe("Crew sign-up")
    await expect.poll(() => page.getByLabel("Your name").inputValue()).toBe("Ada")
    expect(await page.getByLabel("Shirt size").inputValue()).toBe("m")
    expect(await page.getByLabel("Shirt size").locator("option:checked").textContent()).toBe("Medium")
    expect(await htmlLang(page)).toBe("en")
    expect(new URL(page.url()).searchParams.get("lang")).toBe("en")
    // The switch keeps the focus where the visitor left it.
    expect(await page.evaluate<string | undefined>("document.activeElement?.tagName")).toBe("FORMS-EMBED")
    expect(await seriousViolations(page)).toEqual([])

    // A value typed now is saved under the chosen language, which the draft records.
    await page.getByLabel("Email").fill("ada@example.org")
    const key = await server.apiKey()
    const stored = async () => {
      const listed = await fetch(`${server.url}/admin/forms/fs-languages/submissions`, { headers: { authorization: `Bearer ${key}` } })
      const submissions = (await listed.json() as { data: ReadonlyArray<{ language: string; values: Record<string, unknown> }> }).data
      return submissions.map((s) => [s.language, s.values["name"], s.values["email"]])
    }
    await expect.poll(stored, { timeout: 15_000 }).toEqual([["en", "Ada", "ada@example.org"]])

    await page.getByRole("combobox", { name: /Language/ }).selectOption("nl")
    await expect.poll(() => page.locator("forms-embed h1").textContent()).toBe("Aanmelding crew")
    await expect.poll(() => page.getByLabel("Je naam").inputValue()).toBe("Ada")
    expect(await page.getByLabel("E-mail").inputValue()).toBe("ada@example.org")
    expect(await htmlLang(page)).toBe("nl")
    expect(await seriousViolations(page)).toEqual([])

    // A refusal's messages in the page's language, beside the field.
    await page.getByLabel("Je naam").fill("")
    await page.getByRole("button", { name: "Submit" }).click()
    await expect.poll(() => page.locator("forms-embed").getByText("Dit veld is verplicht.").isVisible()).toBe(true)
    expect(await seriousViolations(page)).toEqual([])
    expect(problems).toEqual([])
  })

  it("the page in German by lang, and the element with lang=\"de\" on another origin; axe clean", slow, async () => {
    const german = await open("en-GB", `${server.url}${path}?lang=de`, "Crew-Anmeldung")
    expect(await htmlLang(german.page)).toBe("de")
    expect(await german.page.getByLabel("Ihr Name").isVisible()).toBe(true)
    expect(await german.page.getByRole("combobox", { name: /Language/ }).inputValue()).toBe("de")
    expect(await seriousViolations(german.page)).toEqual([])
    expect(german.problems).toEqual([])

    const site = await startThirdPartySite(server.url, token, { tag: "classic", baseUrl: true, lang: "de" })
    try {
      const embedded = await open("nl-NL", site.url, "Crew-Anmeldung")
      expect(await embedded.page.getByLabel("T-Shirt-Größe").isVisible()).toBe(true)
      // Another site's page keeps its own language: only the element's texts change.
      expect(await htmlLang(embedded.page)).toBe("en")
      expect(await seriousViolations(embedded.page)).toEqual([])
      expect(embedded.problems).toEqual([])
    } finally {
      await site.close()
    }
  })
})

if (chromiumPath === undefined) {
  describe("languages on the hosted form page and the element in Chromium", () => {
    it.skip(noChromium, () => {})
  })
}
