import { describe, expect, it } from "@effect/vitest"
import type { FieldErrors } from "../rules/FieldErrors.js"
import { localiseFieldErrors } from "./localiseFieldErrors.js"

const form = {
  languages: ["nl", "en", "fr-BE"],
  translations: { en: { fields: { postcode: { regex_message: "Four digits, then two letters." } } } },
  fields: [
    { slug: "postcode", validation_rules: { regex: "^[0-9]{4}[A-Z]{2}$", regex_message: "Vier cijfers, dan twee letters." } },
    { slug: "name", validation_rules: { max: 3 } },
    { slug: "code", validation_rules: { regex: "^x$" } }
  ]
}

const errors = (): FieldErrors => {
  const out = Object.create(null) as Record<string, FieldErrors[string]>
  out["name"] = [{ rule: "max", message: "Must be at most 3 characters." }]
  out["postcode"] = [{ rule: "required", message: "This field is required." }, { rule: "regex", message: "Vier cijfers, dan twee letters." }]
  out["code"] = [{ rule: "regex", message: "Must match the required format." }]
  out["__proto__"] = [{ rule: "invalid", message: "Must be a single text, number or true/false value." }]
  return out
}

describe("localiseFieldErrors", () => {
  it("writes the service's messages in the chosen language and keeps the rules, their order and every slug", () => {
    const dutch = localiseFieldErrors(errors(), "nl", form)
    expect(Object.keys(dutch)).toEqual(["name", "postcode", "code", "__proto__"])
    expect(dutch["name"]).toEqual([{ rule: "max", message: "Mag hoogstens 3 tekens lang zijn." }])
    expect(dutch["postcode"]).toEqual([
      { rule: "required", message: "Dit veld is verplicht." },
      { rule: "regex", message: "Vier cijfers, dan twee letters." }
    ])
    expect(dutch["code"]).toEqual([{ rule: "regex", message: "Moet aan het vereiste formaat voldoen." }])
    expect(Object.getOwnPropertyDescriptor(dutch, "__proto__")?.value).toEqual([
      { rule: "invalid", message: "Moet één tekst, getal of waar/onwaar-waarde zijn." }
    ])
  })

  it("an organiser's regex_message in its translation, else the default language's text", () => {
    expect(localiseFieldErrors(errors(), "en", form)["postcode"]?.[1]).toEqual({ rule: "regex", message: "Four digits, then two letters." })
    const french = localiseFieldErrors(errors(), "fr-BE", form)
    expect(french["postcode"]).toEqual([
      { rule: "required", message: "Ce champ est obligatoire." },
      { rule: "regex", message: "Vier cijfers, dan twee letters." }
    ])
    expect(french["name"]).toEqual([{ rule: "max", message: "Doit compter au plus 3 caractères." }])
  })

  it("English without a translation to apply answers the errors as they are", () => {
    const given = errors()
    expect(localiseFieldErrors(given, "en-GB", { fields: form.fields })).toBe(given)
  })
})
