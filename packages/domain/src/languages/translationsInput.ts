/**
 * The `languages` and `translations` members of a definition body (CONTRACT §19), read member by member with
 * every problem at its dotted path; which tags a translation may have is the definition check's
 * (`checkTranslations.ts`).
 */
import { type Body, codePoints, type FieldProblems, has, isObject, isStorable, unknownMembers } from "../rules/bodyChecks.js"
import type { Translations } from "./Translations.js"

const maxLabel = 500
const maxHelp = 1000
const maxRegexMessage = 200
const maxMessage = 100_000

/** An array of strings; which tags a form may name is the definition check's (`checkTranslations.ts`). */
export const languagesInput = (e: FieldProblems, path: string, value: unknown): ReadonlyArray<string> | undefined => {
  if (!Array.isArray(value)) return e.add(path, "invalid", "An array of BCP 47 language tags is expected.")
  let ok = true
  value.forEach((tag: unknown, i) => {
    if (!isStorable(tag)) ok = e.add(`${path}.${i}`, "invalid", "A BCP 47 language tag (en, nl, de-CH) is expected.") ?? false
  })
  return ok ? (value as ReadonlyArray<string>) : undefined
}

const textMember = (e: FieldProblems, path: string, value: unknown, max: number): boolean => {
  if (!isStorable(value)) return e.add(path, "invalid", "A string is expected (without U+0000 or unpaired surrogates).") ?? false
  if (codePoints(value) > max) return e.add(path, "max", `At most ${max} characters.`) ?? false
  return true
}

/** `{ key: check(member) }` for an object whose keys are data (ids, slugs, option values). */
const keyed = (e: FieldProblems, path: string, value: unknown, check: (path: string, member: unknown) => boolean): boolean => {
  if (!isObject(value)) return e.add(path, "invalid", "An object is expected.") ?? false
  let ok = true
  for (const key of Object.keys(value)) {
    if (!isStorable(key)) ok = e.add(path, "invalid", "Keys without U+0000 or unpaired surrogates are expected.") ?? false
    else if (!check(`${path}.${key}`, value[key])) ok = false
  }
  return ok
}

/** An object of known optional text members. */
const texts = (e: FieldProblems, path: string, value: unknown, members: Readonly<Record<string, number>>): boolean => {
  if (!isObject(value)) return e.add(path, "invalid", "An object is expected.") ?? false
  unknownMembers(e, value, Object.keys(members), { prefix: `${path}.` })
  let ok = Object.keys(value).every((key) => Object.prototype.hasOwnProperty.call(members, key))
  for (const [key, max] of Object.entries(members)) {
    if (has(value, key) && !textMember(e, `${path}.${key}`, value[key], max)) ok = false
  }
  return ok
}

const fieldTranslation = (e: FieldProblems, path: string, value: unknown): boolean => {
  if (!isObject(value)) return e.add(path, "invalid", "An object is expected.") ?? false
  const { options, ...rest } = value
  let ok = texts(e, path, rest, { label: maxLabel, help: maxHelp, regex_message: maxRegexMessage })
  if (has(value, "options")) {
    ok = keyed(e, `${path}.options`, options, (p, label) => textMember(e, p, label, maxLabel)) && ok
  }
  return ok
}

const formTranslation = (e: FieldProblems, path: string, value: unknown): boolean => {
  if (!isObject(value)) return e.add(path, "invalid", "An object is expected.") ?? false
  unknownMembers(e, value, ["name", "sections", "fields", "messages"], { prefix: `${path}.` })
  let ok = Object.keys(value).every((key) => ["name", "sections", "fields", "messages"].includes(key))
  if (has(value, "name") && !textMember(e, `${path}.name`, value["name"], maxLabel)) ok = false
  if (has(value, "sections")) {
    ok = keyed(e, `${path}.sections`, value["sections"], (p, s) => texts(e, p, s, { name: maxLabel })) && ok
  }
  if (has(value, "fields")) ok = keyed(e, `${path}.fields`, value["fields"], (p, f) => fieldTranslation(e, p, f)) && ok
  if (has(value, "messages")) {
    const messages = value["messages"]
    if (!isObject(messages)) ok = e.add(`${path}.messages`, "invalid", "An object is expected.") ?? false
    else {
      unknownMembers(e, messages, ["confirmation"], { prefix: `${path}.messages.` })
      if (Object.keys(messages).some((key) => key !== "confirmation")) ok = false
      if (has(messages, "confirmation")) {
        const confirmation = messages["confirmation"]
        ok = texts(e, `${path}.messages.confirmation`, confirmation, { subject: maxLabel, body: maxMessage }) && ok
      }
    }
  }
  return ok
}

export const translationsInput = (e: FieldProblems, path: string, value: unknown): Translations | undefined => {
  const ok = keyed(e, path, value, (p, translation) => formTranslation(e, p, translation))
  return ok ? (value as Translations) : undefined
}

/** Both members of a body, with their defaults (`["en"]`, `{}`) when absent. */
export const languageMembers = (e: FieldProblems, body: Body) => ({
  languages: has(body, "languages") ? languagesInput(e, "languages", body["languages"]) : ["en"],
  translations: has(body, "translations") ? translationsInput(e, "translations", body["translations"]) : {}
})
