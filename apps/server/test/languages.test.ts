/**
 * Languages (CONTRACT §19) on the whole server, PGlite and PostgreSQL: languages and translations through POST,
 * GET and PUT with missing_translations; the definition check's rule translation; the public form and the page in
 * the language chosen by lang and Accept-Language, with Content-Language and Vary: Accept-Language.
 */
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { backends } from "./backends.js"
import { bearer, data, json, newOrganisation } from "./adminSupport.js"
import { call, liveOptions, type RawResponse, testServer } from "./harness.js"

const send = (key: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
  call(path, { method, headers: { ...bearer(key), ...headers }, ...(body === undefined ? {} : { body }) })

const translations = {
  nl: {
    name: "Chauffeurs",
    sections: { car: { name: "Je auto" } },
    fields: { email: { label: "E-mail", help: "We schrijven je hier." }, size: { label: "Maat", options: { s: "Klein" } } }
  }
}

const definition = {
  name: "Drivers",
  type: "registration",
  event_id: null,
  status: "published",
  languages: ["en", "nl", "de-CH"],
  translations,
  sections: [{ id: "car", name: "Your car" }],
  fields: [
    { slug: "email", label: "Email", type: "email", help: "We write to you here.", position: 1 },
    { slug: "size", label: "Size", type: "select", options: [{ value: "s", label: "Small" }, { value: "m", label: "Medium" }], position: 2 },
    { slug: "plate", label: "Plate", type: "text", section_id: "car", position: 3 }
  ]
}

const texts = (form: Record<string, unknown>) => {
  const fields = [...(form["fields"] as ReadonlyArray<Record<string, unknown>>)]
  for (const section of form["sections"] as ReadonlyArray<Record<string, unknown>>) {
    fields.push(...(section["fields"] as ReadonlyArray<Record<string, unknown>>))
  }
  return {
    name: form["name"],
    language: form["language"],
    sections: (form["sections"] as ReadonlyArray<Record<string, unknown>>).map((s) => s["name"]),
    fields: fields.map((f) => [f["label"], f["help"], (f["options"] as ReadonlyArray<{ label: string }> | null)?.map((o) => o.label) ?? null])
  }
}

const languageHeaders = (res: RawResponse) => [res.headers.get("content-language"), res.headers.get("vary")]

for (const backend of backends) {
  layer(testServer(backend), liveOptions)(`languages (${backend})`, (it) => {
    it.effect("languages and translations round-trip through POST, GET and PUT, with what is missing at its path", () =>
      Effect.gen(function*() {
        const { key } = yield* newOrganisation
        const created = yield* send(key, "POST", "/admin/forms", definition)
        assert.strictEqual(created.status, 201, created.text)
        const form = data(created)
        assert.deepStrictEqual([form["languages"], form["translations"]], [definition.languages, translations])
        assert.deepStrictEqual(form["missing_translations"], [
          "translations.nl.fields.size.options.m",
          "translations.nl.fields.plate.label",
          "translations.de-CH.name",
          "translations.de-CH.sections.car.name",
          "translations.de-CH.fields.email.label",
          "translations.de-CH.fields.email.help",
          "translations.de-CH.fields.size.label",
          "translations.de-CH.fields.size.options.s",
          "translations.de-CH.fields.size.options.m",
          "translations.de-CH.fields.plate.label"
        ])
        const put = yield* send(key, "PUT", `/admin/forms/${String(form["id"])}`, form, { "if-match": '"1"' })
        assert.strictEqual(put.status, 200, put.text)
        const again = data(put)
        assert.deepStrictEqual(
          [again["languages"], again["translations"], again["missing_translations"]],
          [form["languages"], form["translations"], form["missing_translations"]]
        )
        const plain = data(yield* send(key, "POST", "/admin/forms", { name: "Plain", type: "registration", event_id: null }))
        assert.deepStrictEqual([plain["languages"], plain["translations"], plain["missing_translations"]], [["en"], {}, []])
      }))

    it.effect("a translation for a language the form does not name, or for its default, is refused with rule translation", () =>
      Effect.gen(function*() {
        const { key } = yield* newOrganisation
        const res = yield* send(key, "POST", "/admin/forms", { ...definition, translations: { ...translations, en: {}, fr: {} } })
        assert.strictEqual(res.status, 422, res.text)
        const fields = (json(res)["error"] as { fields: Record<string, ReadonlyArray<{ rule: string }>> }).fields
        assert.deepStrictEqual(Object.keys(fields).sort(), ["translations.en", "translations.fr"])
        assert.deepStrictEqual([fields["translations.en"]?.[0]?.rule, fields["translations.fr"]?.[0]?.rule], ["translation", "translation"])
      }))

    it.effect("the public form and its page in the language of lang, else Accept-Language, else the default", () =>
      Effect.gen(function*() {
        const { key } = yield* newOrganisation
        const token = String(data(yield* send(key, "POST", "/admin/forms", definition))["public_token"])
        const read = (query: string, headers: Record<string, string> = {}) => call(`/public/forms/${token}${query}`, { headers })
        const english = yield* read("")
        assert.strictEqual(english.status, 200, english.text)
        assert.deepStrictEqual(languageHeaders(english), ["en", "Accept-Language"])
        const en = json(english)["data"] as Record<string, unknown>
        assert.deepStrictEqual(en["languages"], ["en", "nl", "de-CH"])
        assert.deepStrictEqual(texts(en), {
          name: "Drivers",
          language: "en",
          sections: ["Your car"],
          fields: [["Email", "We write to you here.", null], ["Size", null, ["Small", "Medium"]], ["Plate", null, null]]
        })
        const dutch = yield* read("", { "accept-language": "fr;q=0.9, nl-BE;q=0.8, en;q=0.5" })
        assert.deepStrictEqual(languageHeaders(dutch), ["nl", "Accept-Language"])
        // A missing text falls back to the default language's.
        assert.deepStrictEqual(texts(json(dutch)["data"] as Record<string, unknown>), {
          name: "Chauffeurs",
          language: "nl",
          sections: ["Je auto"],
          fields: [["E-mail", "We schrijven je hier.", null], ["Maat", null, ["Klein", "Medium"]], ["Plate", null, null]]
        })
        const swiss = yield* read("", { "accept-language": "de" })
        assert.strictEqual((json(swiss)["data"] as Record<string, unknown>)["language"], "de-CH")
        assert.strictEqual((json(swiss)["data"] as Record<string, unknown>)["name"], "Drivers")
        const chosen = yield* read("?lang=NL", { "accept-language": "de" })
        assert.deepStrictEqual(languageHeaders(chosen), ["nl", "Accept-Language"])
        for (const header of ["\u00ff;;q=5", "*;q=x, ,,", "x".repeat(5000)]) {
          const odd = yield* read("?lang=xx&lang=nl", { "accept-language": header })
          assert.deepStrictEqual([odd.status, ...languageHeaders(odd)], [200, "en", "Accept-Language"])
        }
        const unknown = yield* call("/public/forms/no-such-token", { headers: { "accept-language": "nl" } })
        assert.deepStrictEqual([unknown.status, unknown.headers.get("vary")], [404, "Accept-Language"])
        const page = yield* call(`/f/${token}?lang=nl`)
        assert.strictEqual(page.status, 200, page.text)
        assert.deepStrictEqual(languageHeaders(page), ["nl", "Accept-Language"])
        assert.include(page.text, '<html lang="nl">')
        assert.include(page.text, "<title>Chauffeurs</title>")
        assert.include(page.text, `<forms-embed token="${token}" lang="nl"></forms-embed>`)
        const byHeader = yield* call(`/f/${token}`, { headers: { "accept-language": "de-CH" } })
        assert.include(byHeader.text, '<html lang="de-CH">')
      }))
  })
}
