/**
 * The service's own words for field errors (CONTRACT §19): one catalogue per language (en, nl, de, fr), each with
 * every key of `RuleTexts`. Counts take their plural form from `Intl.PluralRules`, lists are joined by
 * `Intl.ListFormat`; the English catalogue renders exactly the messages the rules write.
 */

/** Every text, by key: a fixed sentence, or one built from its parameters. */
export interface RuleTexts {
  readonly required: string
  readonly invalid: string
  readonly invalidWithOptions: string
  readonly in: string
  readonly regex: string
  readonly unique: string
  readonly email: string
  readonly url: string
  readonly numeric: string
  readonly date: string
  readonly boolean: string
  readonly phone: string
  /** `min` / `max` of a field with options: a count of options. */
  readonly minOptions: (n: number) => string
  readonly maxOptions: (n: number) => string
  /** `min` / `max` of a numeric field: the bound as written. */
  readonly minNumber: (bound: string) => string
  readonly maxNumber: (bound: string) => string
  /** `min` / `max` of a date field: the bound as `YYYY-MM-DD`. */
  readonly minDate: (date: string) => string
  readonly maxDate: (date: string) => string
  /** `min` / `max` of a text: a count of characters. */
  readonly minLength: (n: number) => string
  readonly maxLength: (n: number) => string
  readonly slotsInvalid: string
  readonly slotsIn: string
  readonly slotsOverlap: string
  readonly slotsClosed: string
  /** The full slots, by their labels (name, date, times). */
  readonly slotsFull: (labels: ReadonlyArray<string>) => string
  readonly slotsMin: (n: number) => string
  readonly slotsMax: (n: number) => string
  readonly filesInvalid: string
  readonly fileIn: string
  readonly fileType: string
  readonly filesMin: (n: number) => string
  readonly filesMax: (n: number) => string
}

export type RuleTextKey = keyof RuleTexts

/** The plural form of `n` in `language`: `forms` names the CLDR categories the language uses, `other` always. */
export const pluralIn = (language: string) => {
  const rules = new Intl.PluralRules(language)
  return (n: number, forms: Partial<Record<Intl.LDMLPluralRule, string>> & { readonly other: string }): string =>
    (forms[rules.select(n)] ?? forms.other).replaceAll("#", String(n))
}

/** A list joined as `language` writes "a, b and c". */
export const listIn = (language: string) => {
  const format = new Intl.ListFormat(language, { style: "long", type: "conjunction" })
  return (items: ReadonlyArray<string>): string => format.format(items)
}
