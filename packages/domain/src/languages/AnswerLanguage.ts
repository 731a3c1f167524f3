/**
 * What a use case of the public form or the portal is told about the visitor's language (CONTRACT §19), and how it
 * tells its caller the language it chose once the form is known: the answer's `Content-Language` and the language of
 * its messages, errors included.
 */
import { Effect } from "effect"
import { chooseLanguage, type LanguageChoice, type LanguageRequest } from "./chooseLanguage.js"

export interface AnswerLanguage extends LanguageRequest {
  /** Called once the form is resolved, with the language chosen for it. */
  readonly chosen?: ((choice: LanguageChoice) => void) | undefined
}

/** The language chosen for `form`, reported to the caller; the default language when nothing was asked. */
export const chooseAnswerLanguage = (
  form: { readonly languages?: ReadonlyArray<string> | undefined },
  request: AnswerLanguage | undefined
): Effect.Effect<LanguageChoice> =>
  Effect.sync(() => {
    const choice = chooseLanguage(form, request ?? {})
    request?.chosen?.(choice)
    return choice
  })

/** The language a write records: the chosen one when the request named it explicitly. */
export const explicitLanguage = (choice: LanguageChoice): string | undefined => choice.explicit ? choice.language : undefined
