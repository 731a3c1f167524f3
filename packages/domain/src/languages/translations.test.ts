import { describe, expect, it } from "@effect/vitest"
import { Result } from "effect"
import type { FormField } from "../forms/FormField.js"
import { definitionInput } from "../organiser/forms/formInput.js"
import { missingTranslations } from "./missingTranslations.js"
import { translateForm } from "./translateForm.js"

const field = (slug: string, position: number, over: Partial<FormField> = {}): FormField => ({
  id: `f-${slug}`,
  section_id: null,
  slug,
  label: `${slug} label`,
  type: "text",
  is_required: false,
  options: null,
  validation_rules: null,
  is_unique: false,
  position,
  maps_to: null,
  ...over
})

const form = {
  name: "Crew",
  languages: ["en", "nl", "de-CH"],
  translations: {
    nl: {
      name: "Ploeg",
      sections: { s1: { name: "Over jou" } },
      fields: { email: { label: "E-mail", help: "Je adres" }, shirt: { label: "Shirt", options: { s: "Klein" } } }
    }
  },
  sections: [{ id: "s1", name: "About you", position: 0 }],
  fields: [
    field("shirt", 2, {
      type: "select",
      options: [{ value: "s", label: "Small", tags: [] }, { value: "m", label: "Medium", tags: [] }]
    }),
    field("email", 1, { section_id: "s1", help: "Your address" })
  ]
}

describe("translateForm", () => {
  it("gives each text its translation, else the default language's", () => {
    const nl = translateForm(form, "nl")
    expect(nl.name).toBe("Ploeg")
    expect(nl.sections[0]?.name).toBe("Over jou")
    const [shirt, email] = nl.fields
    expect(email).toMatchObject({ label: "E-mail", help: "Je adres" })
    expect(shirt?.label).toBe("Shirt")
    expect(shirt?.options).toEqual([{ value: "s", label: "Klein", tags: [] }, { value: "m", label: "Medium", tags: [] }])
  })
  it("leaves the form as it is in its default language and in one without a translation", () => {
    expect(translateForm(form, "en")).toBe(form)
    expect(translateForm(form, "de-CH")).toBe(form)
  })
  it("never reads a prototype's member as a translation", () => {
    const sneaky = { ...form, translations: { nl: { fields: {} } } }
    const withProto = translateForm({ ...sneaky, fields: [field("constructor", 0)] }, "nl")
    expect(withProto.fields[0]?.label).toBe("constructor label")
  })
})

describe("missingTranslations", () => {
  it("lists every text a named language lacks at its path, in the form's order; a language without any lists all", () => {
    expect(missingTranslations(form)).toEqual([
      "translations.nl.fields.shirt.options.m",
      "translations.de-CH.name",
      "translations.de-CH.sections.s1.name",
      "translations.de-CH.fields.email.label",
      "translations.de-CH.fields.email.help",
      "translations.de-CH.fields.shirt.label",
      "translations.de-CH.fields.shirt.options.s",
      "translations.de-CH.fields.shirt.options.m"
    ])
  })
  it("lists a field's regex_message and the confirmation's subject and body when the form has them", () => {
    const withTexts = {
      languages: ["en", "nl"],
      translations: { nl: { name: "P", fields: { code: { label: "Code", regex_message: "Vier cijfers." } } } },
      sections: [],
      fields: [
        field("code", 1, { validation_rules: { regex: "^[0-9]{4}$", regex_message: "Four digits." } }),
        field("zip", 2, { validation_rules: { regex: "^[0-9]{4}$", regex_message: "Postcode." } })
      ],
      messages: { confirmation: { to_field: "email", subject: "Thanks", body: "Hi" } }
    }
    expect(missingTranslations(withTexts)).toEqual([
      "translations.nl.fields.zip.label",
      "translations.nl.fields.zip.regex_message",
      "translations.nl.messages.confirmation.subject",
      "translations.nl.messages.confirmation.body"
    ])
    const translated = translateForm({ name: "F", ...withTexts }, "nl")
    expect(translated.fields.map((f) => f.validation_rules?.regex_message)).toEqual(["Vier cijfers.", "Postcode."])
  })
  it("is empty for a form with one language", () => {
    expect(missingTranslations({ ...form, languages: ["en"] })).toEqual([])
    expect(missingTranslations({ sections: [], fields: [field("a", 0)] })).toEqual([])
  })
})

describe("the definition's languages and translations", () => {
  const body = (over: Record<string, unknown>) => ({ name: "F", type: "registration", event_id: null, ...over })
  const errors = (over: Record<string, unknown>) => {
    const result = definitionInput(body(over))
    return Result.isFailure(result) ? result.failure : {}
  }
  it("defaults to English without translations and round-trips what is sent", () => {
    const plain = definitionInput(body({}))
    expect(Result.isSuccess(plain) && [plain.success.languages, plain.success.translations]).toEqual([["en"], {}])
    const sent = { languages: form.languages, translations: form.translations, sections: form.sections, fields: form.fields }
    const read = definitionInput(body(sent))
    expect(Result.isSuccess(read) && [read.success.languages, read.success.translations]).toEqual([form.languages, form.translations])
  })
  it("refuses with rule translation a translation for a language the form does not name or for its default", () => {
    expect(errors({ languages: ["en", "nl"], translations: { en: {}, fr: { name: "x" }, nl: { name: "y" } } })).toEqual({
      "translations.en": [{ rule: "translation", message: "en is the form's default language: its texts are the definition's own." }],
      "translations.fr": [{ rule: "translation", message: "\"fr\" is not one of the form's languages." }]
    })
    expect(Object.keys(errors({ translations: { nl: {} } }))).toEqual(["translations.nl"])
  })
  it("refuses malformed languages and translations at their paths", () => {
    const found = errors({
      languages: ["en", "not a tag", "EN"],
      translations: { nl: { name: 3, colour: "x", fields: { a: { label: "x".repeat(501), options: { s: null } } } } }
    })
    expect(Object.fromEntries(Object.entries(found).map(([path, list]) => [path, list.map((e) => e.rule)]))).toEqual({
      "languages.1": ["invalid"],
      "languages.2": ["unique"],
      "translations.nl.colour": ["invalid"],
      "translations.nl.name": ["invalid"],
      "translations.nl.fields.a.label": ["max"],
      "translations.nl.fields.a.options.s": ["invalid"]
    })
    expect(Object.keys(errors({ languages: [] }))).toEqual(["languages"])
    expect(Object.keys(errors({ languages: Array.from({ length: 21 }, (_, i) => `x${String.fromCharCode(97 + i)}`) }))).toEqual(["languages"])
    expect(Object.keys(errors({ translations: [] }))).toEqual(["translations"])
  })
})
