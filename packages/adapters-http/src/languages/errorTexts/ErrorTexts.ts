/**
 * The envelope's `message` in English, Dutch, German and French (CONTRACT §19), one catalogue per language keyed by
 * the error table's keys: English is the table's own text; a key missing from a language does not compile, and the
 * catalogue test lists every key of every language.
 */
import { type ServiceLanguage, serviceLanguageOf } from "@forms/domain"
import { type ErrorKey, errorTable } from "../../http/errorTable.js"
import { de } from "./de.js"
import { fr } from "./fr.js"
import { nl } from "./nl.js"

export type { ErrorTexts } from "./ErrorTextsType.js"
import type { ErrorTexts } from "./ErrorTextsType.js"

const en = Object.fromEntries(Object.entries(errorTable).map(([key, entry]) => [key, entry.message])) as ErrorTexts

export const errorCatalogues: Readonly<Record<ServiceLanguage, ErrorTexts>> = { en, nl, de, fr }

/** The table's key of an envelope as built by `apiError` (its code and English message). */
const keyOf = new Map(Object.entries(errorTable).map(([key, entry]) => [`${entry.code}\n${entry.message}`, key as ErrorKey]))
export const errorKeyOf = (code: string, message: string): ErrorKey | undefined => keyOf.get(`${code}\n${message}`)

/** The envelope message of `key` in the service's language for `language`. */
export const errorMessageIn = (key: ErrorKey, language: string): string => errorCatalogues[serviceLanguageOf(language)][key]
