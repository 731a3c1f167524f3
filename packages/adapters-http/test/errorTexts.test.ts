import { describe, expect, it } from "@effect/vitest"
import { serviceLanguages } from "@forms/domain"
import { errorTable } from "../src/http/errorTable.js"
import { errorCatalogues, errorKeyOf, errorMessageIn } from "../src/languages/errorTexts/ErrorTexts.js"
import { localiseWireError } from "../src/languages/inChosenLanguage.js"
import { apiError } from "../src/http/errorTable.js"
import { pageCatalogues, pageLanguageOf } from "../src/languages/pageTexts.js"

const keys = Object.keys(errorTable).sort()

describe("the catalogue of envelope messages", () => {
  it("has every error of the table in English, Dutch, German and French, each its own non-empty text", () => {
    for (const language of serviceLanguages) {
      const catalogue = errorCatalogues[language]
      expect(Object.keys(catalogue).sort(), language).toEqual(keys)
      for (const key of keys) expect(catalogue[key as keyof typeof catalogue].trim(), `${language}.${key}`).not.toBe("")
    }
    for (const language of ["nl", "de", "fr"] as const) {
      for (const key of keys) {
        const k = key as keyof typeof errorTable
        expect(errorCatalogues[language][k], `${language}.${key}`).not.toBe(errorTable[k].message)
      }
    }
  })

  it("English is the table's text; every entry is found again by its code and English message", () => {
    for (const key of keys) {
      const k = key as keyof typeof errorTable
      expect(errorCatalogues.en[k]).toBe(errorTable[k].message)
      expect(errorKeyOf(errorTable[k].code, errorTable[k].message)).toBe(key)
    }
  })

  it("a wire error keeps its class, code and fields; only its message changes, by primary subtag", () => {
    const fields = { email: [{ rule: "required" as const, message: "Dit veld is verplicht." }] }
    const error = apiError("ValidationFailed", fields)
    const swiss = localiseWireError(error, "de-CH")
    expect(swiss).toBeInstanceOf(error.constructor)
    expect(swiss.error).toEqual({ code: "VALIDATION_FAILED", message: "Ein oder mehrere Werte sind ungültig.", fields })
    expect(localiseWireError(error, "es").error.message).toBe("One or more values are invalid.")
    expect(errorMessageIn("FormClosed", "fr-BE")).toBe("Ce formulaire n'accepte pas de soumissions.")
  })
})

describe("the catalogue of the pages' words", () => {
  it("has every text in English, Dutch, German and French, translated", () => {
    const keys = Object.keys(pageCatalogues.en).sort()
    for (const language of serviceLanguages) {
      expect(Object.keys(pageCatalogues[language]).sort(), language).toEqual(keys)
      for (const key of keys) {
        const text = pageCatalogues[language][key as keyof typeof pageCatalogues.en]
        expect(text.trim(), `${language}.${key}`).not.toBe("")
        if (language !== "en") expect(text, `${language}.${key}`).not.toBe(pageCatalogues.en[key as keyof typeof pageCatalogues.en])
      }
    }
  })

  it("a page that opened no form picks one of the four by lang, then Accept-Language, else English", () => {
    expect(pageLanguageOf({ lang: "FR" })).toBe("fr")
    expect(pageLanguageOf({ acceptLanguage: "es, pt-BR;q=0.9, nl;q=0.5" })).toBe("nl")
    expect(pageLanguageOf({ acceptLanguage: "de-AT, nl;q=0.5" })).toBe("de")
    expect(pageLanguageOf({ acceptLanguage: "es, de;q=0.9" })).toBe("de")
    expect(pageLanguageOf({ acceptLanguage: "ja" })).toBe("en")
    expect(pageLanguageOf({})).toBe("en")
  })
})
