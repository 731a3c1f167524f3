/**
 * Languages (CONTRACT §19) on the whole server, PGlite and PostgreSQL: languages and translations through POST,
 * GET and PUT with missing_translations; the definition check's rule translation; the public form and the page in
 * the language chosen by lang and Accept-Language, with Content-Language and Vary: Accept-Language; a submission's
 * language through create, save and submit, in the organiser's submission and exports; the writes' messages in it.
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
        assert.include(page.text, `<forms-embed token="${token}" lang="nl" data-page></forms-embed>`)
        const byHeader = yield* call(`/f/${token}`, { headers: { "accept-language": "de-CH" } })
        assert.include(byHeader.text, '<html lang="de-CH">')
        // A page whose token opens nothing: its words in the service's language the request asks for.
        const missing = yield* call("/f/no-such-token-000001", { headers: { "accept-language": "nl-BE, en;q=0.5" } })
        assert.deepStrictEqual([missing.status, ...languageHeaders(missing)], [404, "nl", "Accept-Language"])
        assert.include(missing.text, '<html lang="nl">')
        assert.include(missing.text, "<h1>Formulier niet gevonden</h1>")
        const portal = yield* call("/portal/no-such-portal-000001?lang=fr")
        assert.deepStrictEqual([portal.status, portal.headers.get("content-language")], [404, "fr"])
        assert.include(portal.text, "<h1>Portail introuvable</h1>")
      }))

    it.effect("a submission records its language; create, save, submit and time slots answer in the chosen one", () =>
      Effect.gen(function*() {
        const { key } = yield* newOrganisation
        const form = data(yield* send(key, "POST", "/admin/forms", {
          name: "Crew",
          type: "registration",
          event_id: null,
          status: "published",
          languages: ["en", "nl", "de-CH"],
          translations: { nl: { fields: { code: { regex_message: "Vier cijfers." } } } },
          fields: [
            { slug: "email", label: "Email", type: "email", is_required: true, position: 1 },
            { slug: "name", label: "Name", type: "text", validation_rules: { max: 3 }, position: 2 },
            { slug: "code", label: "Code", type: "text", validation_rules: { regex: "^[0-9]{4}$", regex_message: "Four digits." }, position: 3 }
          ]
        }))
        const base = `/public/forms/${String(form["public_token"])}`
        const write = (method: string, path: string, body: unknown, headers: Record<string, string> = {}) =>
          call(`${base}${path}`, { method, body, headers })
        const key1 = "lang-key-0000000000000001"

        // Refused values on create: the envelope and the field messages in Dutch, plural-aware.
        const refused = yield* write("POST", "/submissions", { idempotency_key: key1, values: { name: "Ada Lovelace" } }, {
          "accept-language": "nl-BE, en;q=0.5"
        })
        assert.strictEqual(refused.status, 422, refused.text)
        assert.deepStrictEqual(languageHeaders(refused), ["nl", "Accept-Language"])
        assert.deepStrictEqual(json(refused)["error"], {
          code: "VALIDATION_FAILED",
          message: "Een of meer waarden zijn ongeldig.",
          fields: { name: [{ rule: "max", message: "Mag hoogstens 3 tekens lang zijn." }] }
        })
        // A request-shape refusal comes before the form is known: English.
        const shape = yield* write("POST", "/submissions", { idempotency_key: "short" }, { "accept-language": "nl" })
        assert.strictEqual(shape.status, 422)
        assert.strictEqual((json(shape)["error"] as { message: string }).message, "One or more values are invalid.")
        assert.deepStrictEqual(languageHeaders(shape), [null, null])

        const created = yield* write("POST", "/submissions", { idempotency_key: key1 }, { "accept-language": "nl-BE, en;q=0.5" })
        assert.strictEqual(created.status, 201, created.text)
        assert.deepStrictEqual(languageHeaders(created), ["nl", "Accept-Language"])
        const id = String(data(created)["id"])
        assert.strictEqual(data(created)["language"], "nl")

        const swiss = yield* write("PUT", `/submissions/${id}?lang=DE-ch`, { values: { name: "Ada" } })
        assert.deepStrictEqual([swiss.status, data(swiss)["language"], ...languageHeaders(swiss)], [200, "de-CH", "de-CH", "Accept-Language"])
        // No explicit choice (`*`, a language the form lacks): the answer in the default language, the record kept.
        const kept = yield* write("PUT", `/submissions/${id}`, { values: {} }, { "accept-language": "fr, *;q=0.1" })
        assert.deepStrictEqual([kept.status, data(kept)["language"], ...languageHeaders(kept)], [200, "de-CH", "en", "Accept-Language"])

        const invalid = yield* write("POST", `/submissions/${id}/submit`, { values: { code: "12" } }, { "accept-language": "nl" })
        assert.strictEqual(invalid.status, 422, invalid.text)
        assert.deepStrictEqual(json(invalid)["error"], {
          code: "VALIDATION_FAILED",
          message: "Een of meer waarden zijn ongeldig.",
          fields: {
            email: [{ rule: "required", message: "Dit veld is verplicht." }],
            code: [{ rule: "regex", message: "Vier cijfers." }]
          }
        })
        const french = yield* write("POST", `/submissions/${id}/submit`, { values: { code: "12", email: "a@b.nl" } }, { "accept-language": "de" })
        assert.deepStrictEqual((json(french)["error"] as { fields: unknown }).fields, { code: [{ rule: "regex", message: "Four digits." }] })
        assert.strictEqual((json(french)["error"] as { message: string }).message, "Ein oder mehrere Werte sind ungültig.")

        const submitted = yield* write("POST", `/submissions/${id}/submit`, { values: { code: "1234", email: "a@b.nl" } }, { "accept-language": "fr" })
        assert.deepStrictEqual([submitted.status, data(submitted)["language"], ...languageHeaders(submitted)], [200, "de-CH", "en", "Accept-Language"])
        const again = yield* write("POST", `/submissions/${id}/submit`, {}, { "accept-language": "nl" })
        assert.deepStrictEqual([again.status, (json(again)["error"] as { message: string }).message], [409, "Deze inzending is al verstuurd."])

        const slots = yield* call(`${base}/time-slots?lang=nl`)
        assert.deepStrictEqual([slots.status, ...languageHeaders(slots)], [404, "nl", "Accept-Language"])
        assert.strictEqual((json(slots)["error"] as { message: string }).message, "Tijdsloten zijn er alleen voor vrijwilligersformulieren.")
        // `de` is a prefix of `de-CH` at a `-` boundary; `de-AT` would not be.
        const sections = yield* call(`${base}/sections`, { headers: { "accept-language": "de-AT, de;q=0.5" } })
        assert.deepStrictEqual([sections.status, ...languageHeaders(sections)], [200, "de-CH", "Accept-Language"])

        // The organiser's submission and exports carry it: the last CSV column, a member of NDJSON lines.
        const stored = yield* send(key, "GET", `/admin/submissions/${id}`)
        assert.strictEqual(data(stored)["language"], "de-CH")
        const csv = yield* send(key, "GET", `/admin/forms/${String(form["id"])}/export?format=csv`)
        const [header, row] = csv.text.split("\r\n")
        // (fetch's text() drops the byte-order mark)
        assert.strictEqual(header, "submission_id,status,created_at,updated_at,submitted_at,email,name,code,language")
        assert.isTrue(row?.startsWith(`${id},submitted,`) && row.endsWith(",a@b.nl,Ada,1234,de-CH"), row)
        const ndjson = yield* send(key, "GET", `/admin/forms/${String(form["id"])}/export?format=ndjson`)
        assert.strictEqual((JSON.parse(ndjson.text.trim()) as Record<string, unknown>)["language"], "de-CH")
      }))
  })
}
