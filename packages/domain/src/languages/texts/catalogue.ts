/** The catalogues of the service's own words by language, and the one a chosen language reads (CONTRACT §19). */
import { de } from "./de.js"
import { en } from "./en.js"
import { fr } from "./fr.js"
import { nl } from "./nl.js"
import type { RuleTexts } from "./RuleTexts.js"

export const ruleCatalogues = { en, nl, de, fr } as const satisfies Readonly<Record<string, RuleTexts>>
export type ServiceLanguage = keyof typeof ruleCatalogues
export const serviceLanguages: ReadonlyArray<ServiceLanguage> = ["en", "nl", "de", "fr"]

/** The service's language for a language tag: by its primary subtag (`de-CH` → `de`), English for any other. */
export const serviceLanguageOf = (tag: string): ServiceLanguage => {
  const primary = tag.split("-", 1)[0]?.toLowerCase() ?? ""
  return serviceLanguages.find((language) => language === primary) ?? "en"
}
