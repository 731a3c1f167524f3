import { describe, expect, it } from "@effect/vitest"
import { chooseLanguage, parseAcceptLanguage } from "./chooseLanguage.js"

const choose = (languages: ReadonlyArray<string>, acceptLanguage: string | undefined, lang?: string) =>
  chooseLanguage({ languages }, { lang, acceptLanguage })

describe("parseAcceptLanguage", () => {
  it("orders ranges by q-value, ties in header order, dropping q=0 and malformed elements", () => {
    expect(parseAcceptLanguage("fr;q=0.5, nl-BE, de;q=0.5, en;q=0, x_y, it;q=2, *;q=0.1, pt;foo=1, es;Q=0.7")).toEqual([
      { range: "nl-BE", q: 1 },
      { range: "es", q: 0.7 },
      { range: "fr", q: 0.5 },
      { range: "de", q: 0.5 },
      { range: "*", q: 0.1 }
    ])
  })
  it("reads nothing from an absent, empty, garbage or oversized header", () => {
    for (const header of [undefined, "", ",,,", ";q=1", "\u0000", "é", "en;q=0.5;q=", `${"en,".repeat(2000)}en`]) {
      expect(parseAcceptLanguage(header)).toEqual([])
    }
  })
})

describe("chooseLanguage", () => {
  const table: ReadonlyArray<readonly [ReadonlyArray<string>, string | undefined, string | undefined, string, boolean]> = [
    // languages, Accept-Language, lang, chosen, explicit
    [["en", "nl"], undefined, undefined, "en", false],
    [["en", "nl"], "nl", undefined, "nl", true],
    [["en", "nl"], "NL", undefined, "nl", true],
    [["en", "nl"], "nl-BE", undefined, "nl", true],
    [["en", "de-CH"], "de", undefined, "de-CH", true],
    [["en", "de-CH"], "de-CH-1996", undefined, "de-CH", true],
    [["en", "de"], "de-CH", undefined, "de", true],
    // not a prefix at a `-` boundary
    [["en", "nl"], "nld", undefined, "en", false],
    [["en", "de-CH"], "de-C", undefined, "en", false],
    // exact before prefix; prefix in the form's order
    [["en", "nl", "nl-BE"], "nl-BE", undefined, "nl-BE", true],
    [["en", "nl-NL", "nl-BE"], "nl", undefined, "nl-NL", true],
    [["en", "nl-BE", "nl"], "nl", undefined, "nl", true],
    // ranges one at a time by q-value, not by specificity
    [["en", "de-CH"], "de-CH;q=0.1, de;q=0.9, en;q=0.5", undefined, "de-CH", true],
    [["en", "nl", "fr"], "fr;q=0.5, nl;q=0.8", undefined, "nl", true],
    // ties in header order
    [["en", "nl", "fr"], "fr;q=0.5, nl;q=0.5", undefined, "fr", true],
    // q=0 is ignored, the next range decides
    [["en", "nl", "de-CH"], "de-CH;q=0, de", undefined, "de-CH", true],
    [["en", "nl"], "nl;q=0", undefined, "en", false],
    // `*` means the default (not an explicit choice)
    [["en", "nl"], "fr, *;q=0.5, nl;q=0.1", undefined, "en", false],
    [["nl", "en"], "*", undefined, "nl", false],
    // nothing matches: the default
    [["nl", "fr"], "ja, zh-Hant", undefined, "nl", false],
    // malformed headers never fail, they choose from what reads well
    [["en", "nl"], "nl;q=abc, ;;, ,nl;q=0.3", undefined, "nl", true],
    [["en", "nl"], "\u0000\u0001", undefined, "en", false],
    // lang first, case-insensitive, when it names a language of the form
    [["en", "nl"], "en", "NL", "nl", true],
    [["en", "nl"], "nl", "fr", "nl", true],
    [["en", "nl"], undefined, "nl-BE", "en", false],
    // a form without languages has English
    [[], "nl", undefined, "en", false]
  ]
  it.each(table)("%j with %j and lang %j chooses %s", (languages, header, lang, chosen, explicit) => {
    expect(choose(languages, header, lang)).toEqual({ language: chosen, explicit })
  })
})
