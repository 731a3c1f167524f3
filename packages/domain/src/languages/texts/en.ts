/** English: the words the rules write (the catalogue's reference; `localiseFieldErrors` reads them back). */
import { pluralIn, type RuleTexts } from "./RuleTexts.js"

const plural = pluralIn("en")
/** "a, b and c", without the serial comma `Intl.ListFormat("en")` writes. */
const list = (items: ReadonlyArray<string>): string => `${items.slice(0, -1).join(", ")} and ${items.at(-1) ?? ""}`

export const en: RuleTexts = {
  required: "This field is required.",
  invalid: "Must be a single text, number or true/false value.",
  invalidWithOptions: "Must be a single value or a list of text or number values.",
  in: "Must be one of the allowed options.",
  regex: "Must match the required format.",
  unique: "This value has already been used.",
  email: "Must be a valid email address.",
  url: "Must be a valid http or https URL.",
  numeric: "Must be a number.",
  date: "Must be a valid date (YYYY-MM-DD, optionally with a time).",
  boolean: "Must be true or false.",
  phone: "Must be a valid phone number of 7 to 15 digits.",
  minOptions: (n) => plural(n, { one: "Select at least # option.", other: "Select at least # options." }),
  maxOptions: (n) => plural(n, { one: "Select at most # option.", other: "Select at most # options." }),
  minNumber: (bound) => `Must be at least ${bound}.`,
  maxNumber: (bound) => `Must be at most ${bound}.`,
  minDate: (date) => `Must be on or after ${date}.`,
  maxDate: (date) => `Must be on or before ${date}.`,
  minLength: (n) => plural(n, { one: "Must be at least # character.", other: "Must be at least # characters." }),
  maxLength: (n) => plural(n, { one: "Must be at most # character.", other: "Must be at most # characters." }),
  slotsInvalid: "Must be a time slot id or a list of time slot ids, each given once.",
  slotsIn: "Must be one of the form's time slots.",
  slotsOverlap: "The chosen time slots overlap in time.",
  slotsClosed: "Sign-up for a chosen time slot is not open now.",
  slotsFull: (labels) =>
    labels.length <= 1
      ? `The time slot ${labels[0] ?? ""} has no place left.`
      : `The time slots ${list(labels)} have no place left.`,
  slotsMin: (n) => plural(n, { one: "Choose at least # time slot.", other: "Choose at least # time slots." }),
  slotsMax: (n) => plural(n, { one: "Choose at most # time slot.", other: "Choose at most # time slots." }),
  filesInvalid: "Must be a file id or a list of file ids.",
  fileIn: "Every file must be an upload of this submission for this field.",
  fileType: "This type of file is not accepted here.",
  // As the file rules write them (no singular form).
  filesMin: (n) => `At least ${n} files.`,
  filesMax: (n) => `At most ${n} files.`
}
