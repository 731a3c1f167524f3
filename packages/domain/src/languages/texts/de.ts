/** German. */
import { listIn, pluralIn, type RuleTexts } from "./RuleTexts.js"

const plural = pluralIn("de")
const list = listIn("de")

export const de: RuleTexts = {
  required: "Dieses Feld ist erforderlich.",
  invalid: "Muss ein einzelner Text, eine Zahl oder ein Wahr/Falsch-Wert sein.",
  invalidWithOptions: "Muss ein einzelner Wert oder eine Liste von Texten oder Zahlen sein.",
  in: "Muss eine der erlaubten Optionen sein.",
  regex: "Muss dem verlangten Format entsprechen.",
  unique: "Dieser Wert wurde bereits verwendet.",
  email: "Muss eine gültige E-Mail-Adresse sein.",
  url: "Muss eine gültige http- oder https-URL sein.",
  numeric: "Muss eine Zahl sein.",
  date: "Muss ein gültiges Datum sein (JJJJ-MM-TT, wahlweise mit Uhrzeit).",
  boolean: "Muss wahr oder falsch sein.",
  phone: "Muss eine gültige Telefonnummer mit 7 bis 15 Ziffern sein.",
  minOptions: (n) => plural(n, { one: "Wählen Sie mindestens # Option.", other: "Wählen Sie mindestens # Optionen." }),
  maxOptions: (n) => plural(n, { one: "Wählen Sie höchstens # Option.", other: "Wählen Sie höchstens # Optionen." }),
  minNumber: (bound) => `Muss mindestens ${bound} sein.`,
  maxNumber: (bound) => `Darf höchstens ${bound} sein.`,
  minDate: (date) => `Muss am oder nach dem ${date} liegen.`,
  maxDate: (date) => `Muss am oder vor dem ${date} liegen.`,
  minLength: (n) => plural(n, { one: "Muss mindestens # Zeichen lang sein.", other: "Muss mindestens # Zeichen lang sein." }),
  maxLength: (n) => plural(n, { one: "Darf höchstens # Zeichen lang sein.", other: "Darf höchstens # Zeichen lang sein." }),
  slotsInvalid: "Muss eine Zeitfenster-ID oder eine Liste von Zeitfenster-IDs sein, jede nur einmal.",
  slotsIn: "Muss eines der Zeitfenster dieses Formulars sein.",
  slotsOverlap: "Die gewählten Zeitfenster überschneiden sich.",
  slotsClosed: "Die Anmeldung für ein gewähltes Zeitfenster ist derzeit nicht offen.",
  slotsFull: (labels) =>
    labels.length <= 1
      ? `Das Zeitfenster ${labels[0] ?? ""} hat keinen Platz mehr.`
      : `Die Zeitfenster ${list(labels)} haben keinen Platz mehr.`,
  slotsMin: (n) => plural(n, { one: "Wählen Sie mindestens # Zeitfenster.", other: "Wählen Sie mindestens # Zeitfenster." }),
  slotsMax: (n) => plural(n, { one: "Wählen Sie höchstens # Zeitfenster.", other: "Wählen Sie höchstens # Zeitfenster." }),
  filesInvalid: "Muss eine Datei-ID oder eine Liste von Datei-IDs sein.",
  fileIn: "Jede Datei muss ein Upload dieser Einsendung für dieses Feld sein.",
  fileType: "Diese Art von Datei wird hier nicht angenommen.",
  filesMin: (n) => plural(n, { one: "Mindestens # Datei.", other: "Mindestens # Dateien." }),
  filesMax: (n) => plural(n, { one: "Höchstens # Datei.", other: "Höchstens # Dateien." })
}
