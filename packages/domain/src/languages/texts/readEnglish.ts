/**
 * An English field message read back as its catalogue key and parameters, so that it can be written in another
 * language. The rules write English (their messages are part of compiled, cached rule plans); a message is
 * translated where an answer's language is known. A message that is not the catalogue's (an organiser's own
 * `regex_message`) reads as undefined and is left as it is.
 */
import { en } from "./en.js"
import type { RuleTextKey, RuleTexts } from "./RuleTexts.js"

/** A parsed message: renders itself from any catalogue. */
export type ReadMessage = (texts: RuleTexts) => string

type FixedKey = { [K in RuleTextKey]: RuleTexts[K] extends string ? K : never }[RuleTextKey]

const fixed = new Map<string, FixedKey>()
for (const key of Object.keys(en) as Array<RuleTextKey>) {
  const text = en[key]
  if (typeof text === "string") fixed.set(text, key as FixedKey)
}

type Reader = readonly [RegExp, (match: RegExpExecArray) => ReadMessage]
const count = (match: RegExpExecArray): number => Number(match[1])
const text = (match: RegExpExecArray): string => match[1] ?? ""
/** "a, b and c" back to its items (a label holding ", " is rejoined with the same separator, so reads the same). */
const items = (joined: string): ReadonlyArray<string> => {
  const at = joined.lastIndexOf(" and ")
  return at === -1 ? [joined] : [...joined.slice(0, at).split(", "), joined.slice(at + " and ".length)]
}

// Most specific first: "Must be at least 3 characters." is a length, "Must be at least 3." a number.
const readers: ReadonlyArray<Reader> = [
  [/^Select at least (\d+) options?\.$/, (m) => (t) => t.minOptions(count(m))],
  [/^Select at most (\d+) options?\.$/, (m) => (t) => t.maxOptions(count(m))],
  [/^Must be at least (\d+) characters?\.$/, (m) => (t) => t.minLength(count(m))],
  [/^Must be at most (\d+) characters?\.$/, (m) => (t) => t.maxLength(count(m))],
  [/^Must be on or after (\d{4,}-\d{2}-\d{2})\.$/, (m) => (t) => t.minDate(text(m))],
  [/^Must be on or before (\d{4,}-\d{2}-\d{2})\.$/, (m) => (t) => t.maxDate(text(m))],
  [/^Must be at least (\S+)\.$/, (m) => (t) => t.minNumber(text(m))],
  [/^Must be at most (\S+)\.$/, (m) => (t) => t.maxNumber(text(m))],
  [/^Choose at least (\d+) time slots?\.$/, (m) => (t) => t.slotsMin(count(m))],
  [/^Choose at most (\d+) time slots?\.$/, (m) => (t) => t.slotsMax(count(m))],
  [/^At least (\d+) files\.$/, (m) => (t) => t.filesMin(count(m))],
  [/^At most (\d+) files\.$/, (m) => (t) => t.filesMax(count(m))],
  [/^The time slot (.*) has no place left\.$/s, (m) => (t) => t.slotsFull([text(m)])],
  [/^The time slots (.*) have no place left\.$/s, (m) => (t) => t.slotsFull(items(text(m)))]
]

/** The message as its key and parameters, or undefined when it is none of the catalogue's. */
export const readEnglish = (message: string): ReadMessage | undefined => {
  const key = fixed.get(message)
  if (key !== undefined) return (t) => t[key]
  for (const [pattern, read] of readers) {
    const match = pattern.exec(message)
    if (match !== null) return read(match)
  }
  return undefined
}
