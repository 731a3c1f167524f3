/** Dutch. */
import { listIn, pluralIn, type RuleTexts } from "./RuleTexts.js"

const plural = pluralIn("nl")
const list = listIn("nl")

export const nl: RuleTexts = {
  required: "Dit veld is verplicht.",
  invalid: "Moet één tekst, getal of waar/onwaar-waarde zijn.",
  invalidWithOptions: "Moet één waarde zijn of een lijst van teksten of getallen.",
  in: "Moet een van de toegestane opties zijn.",
  regex: "Moet aan het vereiste formaat voldoen.",
  unique: "Deze waarde is al gebruikt.",
  email: "Moet een geldig e-mailadres zijn.",
  url: "Moet een geldige http- of https-URL zijn.",
  numeric: "Moet een getal zijn.",
  date: "Moet een geldige datum zijn (JJJJ-MM-DD, eventueel met een tijd).",
  boolean: "Moet waar of onwaar zijn.",
  phone: "Moet een geldig telefoonnummer van 7 tot 15 cijfers zijn.",
  minOptions: (n) => plural(n, { one: "Kies minstens # optie.", other: "Kies minstens # opties." }),
  maxOptions: (n) => plural(n, { one: "Kies hoogstens # optie.", other: "Kies hoogstens # opties." }),
  minNumber: (bound) => `Moet minstens ${bound} zijn.`,
  maxNumber: (bound) => `Mag hoogstens ${bound} zijn.`,
  minDate: (date) => `Moet op of na ${date} zijn.`,
  maxDate: (date) => `Moet op of voor ${date} zijn.`,
  minLength: (n) => plural(n, { one: "Moet minstens # teken lang zijn.", other: "Moet minstens # tekens lang zijn." }),
  maxLength: (n) => plural(n, { one: "Mag hoogstens # teken lang zijn.", other: "Mag hoogstens # tekens lang zijn." }),
  slotsInvalid: "Moet een tijdslot-id zijn of een lijst van tijdslot-id's, elk één keer.",
  slotsIn: "Moet een van de tijdsloten van dit formulier zijn.",
  slotsOverlap: "De gekozen tijdsloten overlappen in tijd.",
  slotsClosed: "Inschrijven voor een gekozen tijdslot is nu niet open.",
  slotsFull: (labels) =>
    labels.length <= 1
      ? `Het tijdslot ${labels[0] ?? ""} heeft geen plaats meer.`
      : `De tijdsloten ${list(labels)} hebben geen plaats meer.`,
  slotsMin: (n) => plural(n, { one: "Kies minstens # tijdslot.", other: "Kies minstens # tijdsloten." }),
  slotsMax: (n) => plural(n, { one: "Kies hoogstens # tijdslot.", other: "Kies hoogstens # tijdsloten." }),
  filesInvalid: "Moet een bestands-id zijn of een lijst van bestands-id's.",
  fileIn: "Elk bestand moet een upload van deze inzending voor dit veld zijn.",
  fileType: "Dit soort bestand wordt hier niet aanvaard.",
  filesMin: (n) => plural(n, { one: "Minstens # bestand.", other: "Minstens # bestanden." }),
  filesMax: (n) => plural(n, { one: "Hoogstens # bestand.", other: "Hoogstens # bestanden." })
}
