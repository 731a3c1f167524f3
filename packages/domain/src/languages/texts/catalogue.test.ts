import { describe, expect, it } from "@effect/vitest"
import { requiredMessage, inMessage, invalidMessage, invalidWithOptionsMessage, regexMessage } from "../../rules/messages.js"
import { uniqueMessage } from "../../rules/FieldErrors.js"
import { maxMessage, minMessage } from "../../rules/bounds.js"
import { typeMessages } from "../../rules/types.js"
import { fileInMessage, filesInvalidMessage, fileTypeMessage } from "../../rules/fileRules.js"
import { slotsInvalidMessage } from "../../rules/SlotChoice.js"
import { slotsClosedMessage } from "../../shifts/signupWindow.js"
import { slotsFullMessage, slotsInMessage, slotsMaxMessage, slotsMinMessage, slotsOverlapMessage } from "../../shifts/slotChoices.js"
import { ruleCatalogues, serviceLanguageOf, serviceLanguages } from "./catalogue.js"
import { readEnglish } from "./readEnglish.js"
import type { RuleTextKey, RuleTexts } from "./RuleTexts.js"

/** Sample parameters for every key that takes some. */
const samples: Readonly<Record<RuleTextKey, ReadonlyArray<unknown>>> = {
  required: [], invalid: [], invalidWithOptions: [], in: [], regex: [], unique: [], email: [], url: [], numeric: [],
  date: [], boolean: [], phone: [], slotsInvalid: [], slotsIn: [], slotsOverlap: [], slotsClosed: [], filesInvalid: [],
  fileIn: [], fileType: [],
  minOptions: [0, 1, 2, 5], maxOptions: [0, 1, 2, 5], minLength: [0, 1, 2, 21], maxLength: [0, 1, 2, 21],
  minNumber: ["-1.5", "3", "1e+21"], maxNumber: ["0", "12"], minDate: ["2027-08-20"], maxDate: ["2027-08-21"],
  slotsFull: [["Bar 2027-08-20 12:00–16:00"], ["Bar 2027-08-20 12:00–16:00", "Gate, north 2027-08-20 08:00–12:00", "Tent 2027-08-21 10:00–12:00"]],
  slotsMin: [1, 2], slotsMax: [1, 3], filesMin: [1, 2], filesMax: [1, 4]
}
const keys = Object.keys(samples) as Array<RuleTextKey>

const render = (texts: RuleTexts, key: RuleTextKey, param: unknown): string => {
  const text = texts[key]
  return typeof text === "string" ? text : (text as (p: unknown) => string)(param)
}
const renders = (texts: RuleTexts, key: RuleTextKey): ReadonlyArray<string> =>
  samples[key].length === 0 ? [render(texts, key, undefined)] : samples[key].map((param) => render(texts, key, param))

describe("the catalogue of field messages", () => {
  it("names exactly the same keys in English, Dutch, German and French, each a non-empty text", () => {
    for (const language of serviceLanguages) {
      const texts = ruleCatalogues[language]
      expect(Object.keys(texts).sort()).toEqual([...keys].sort())
      for (const key of keys) {
        for (const text of renders(texts, key)) {
          expect(text.trim(), `${language}.${key}`).not.toBe("")
          expect(text, `${language}.${key}`).not.toMatch(/undefined|#|\{/)
        }
      }
    }
  })

  it("is translated: no Dutch, German or French sentence is the English one", () => {
    for (const language of ["nl", "de", "fr"] as const) {
      for (const key of keys) {
        expect(renders(ruleCatalogues[language], key), `${language}.${key}`).not.toEqual(renders(ruleCatalogues.en, key))
      }
    }
  })

  it("English is exactly what the rules write", () => {
    const en = ruleCatalogues.en
    expect([en.required, en.invalid, en.invalidWithOptions, en.in, en.regex, en.unique])
      .toEqual([requiredMessage, invalidMessage, invalidWithOptionsMessage, inMessage, regexMessage, uniqueMessage])
    expect([en.email, en.url, en.numeric, en.date, en.boolean, en.phone])
      .toEqual([typeMessages.email, typeMessages.url, typeMessages.numeric, typeMessages.date, typeMessages.boolean, typeMessages.phone])
    expect([en.slotsInvalid, en.slotsIn, en.slotsOverlap, en.slotsClosed, en.filesInvalid, en.fileIn, en.fileType])
      .toEqual([slotsInvalidMessage, slotsInMessage, slotsOverlapMessage, slotsClosedMessage, filesInvalidMessage, fileInMessage, fileTypeMessage])
    for (const n of [0, 1, 2, 7]) {
      expect(en.minLength(n)).toBe(minMessage("length", n, false))
      expect(en.maxLength(n)).toBe(maxMessage("length", n, false))
      expect(en.minOptions(n)).toBe(minMessage("length", n, true))
      expect(en.maxOptions(n)).toBe(maxMessage("numeric", n, true))
      expect(en.slotsMin(n)).toBe(slotsMinMessage(n))
      expect(en.slotsMax(n)).toBe(slotsMaxMessage(n))
    }
    expect(en.minNumber("-1.5")).toBe(minMessage("numeric", -1.5, false))
    expect(en.maxNumber("12")).toBe(maxMessage("numeric", 12, false))
    expect(en.minDate("2027-08-20")).toBe(minMessage("date", 20270820, false))
    expect(en.maxDate("2027-08-20")).toBe(maxMessage("date", 20270820, false))
    const slot = (name: string) => ({ id: name, name, date: "2027-08-20", start_time: "08:00", end_time: "12:00" })
    expect(en.slotsFull(["Bar 2027-08-20 08:00\u201312:00"])).toBe(slotsFullMessage([slot("Bar")]))
    expect(en.slotsFull(["Bar 2027-08-20 08:00\u201312:00", "Gate 2027-08-20 08:00\u201312:00", "Tent 2027-08-20 08:00\u201312:00"]))
      .toBe(slotsFullMessage([slot("Bar"), slot("Gate"), slot("Tent")]))
  })

  it("every English message reads back as itself, and renders in each language as that language's catalogue does", () => {
    for (const key of keys) {
      const params = samples[key].length === 0 ? [undefined] : samples[key]
      for (const param of params) {
        const english = render(ruleCatalogues.en, key, param)
        const read = readEnglish(english)
        expect(read, english).toBeDefined()
        for (const language of serviceLanguages) {
          expect(read?.(ruleCatalogues[language]), `${language}: ${english}`).toBe(render(ruleCatalogues[language], key, param))
        }
      }
    }
    expect(readEnglish("Postcode: four digits and two letters.")).toBeUndefined()
  })

  it("plural forms follow Intl.PluralRules: French 0 and 1 are singular, Dutch and German only 1", () => {
    expect(ruleCatalogues.fr.minLength(0)).toBe("Doit compter au moins 0 caractère.")
    expect(ruleCatalogues.fr.minLength(2)).toBe("Doit compter au moins 2 caractères.")
    expect(ruleCatalogues.nl.minLength(1)).toBe("Moet minstens 1 teken lang zijn.")
    expect(ruleCatalogues.nl.minLength(0)).toBe("Moet minstens 0 tekens lang zijn.")
    expect(ruleCatalogues.de.filesMax(1)).toBe("Höchstens 1 Datei.")
    expect(ruleCatalogues.de.filesMax(3)).toBe("Höchstens 3 Dateien.")
    expect(ruleCatalogues.de.slotsFull(["A", "B", "C"])).toBe("Die Zeitfenster A, B und C haben keinen Platz mehr.")
  })

  it("a language tag picks its catalogue by primary subtag, English for any other", () => {
    expect(["de-CH", "NL-be", "fr", "en-GB", "es", "pt-BR", "x"].map(serviceLanguageOf)).toEqual(["de", "nl", "fr", "en", "en", "en", "en"])
  })
})
