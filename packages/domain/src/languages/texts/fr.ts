/** French. `Intl.PluralRules("fr")` puts 0 and 1 in `one`. */
import { listIn, pluralIn, type RuleTexts } from "./RuleTexts.js"

const plural = pluralIn("fr")
const list = listIn("fr")

export const fr: RuleTexts = {
  required: "Ce champ est obligatoire.",
  invalid: "Doit être un seul texte, nombre ou valeur vrai/faux.",
  invalidWithOptions: "Doit être une seule valeur ou une liste de textes ou de nombres.",
  in: "Doit être l'une des options autorisées.",
  regex: "Doit respecter le format demandé.",
  unique: "Cette valeur a déjà été utilisée.",
  email: "Doit être une adresse e-mail valide.",
  url: "Doit être une URL http ou https valide.",
  numeric: "Doit être un nombre.",
  date: "Doit être une date valide (AAAA-MM-JJ, éventuellement avec une heure).",
  boolean: "Doit être vrai ou faux.",
  phone: "Doit être un numéro de téléphone valide de 7 à 15 chiffres.",
  minOptions: (n) => plural(n, { one: "Choisissez au moins # option.", other: "Choisissez au moins # options." }),
  maxOptions: (n) => plural(n, { one: "Choisissez au plus # option.", other: "Choisissez au plus # options." }),
  minNumber: (bound) => `Doit être au moins ${bound}.`,
  maxNumber: (bound) => `Doit être au plus ${bound}.`,
  minDate: (date) => `Doit être le ${date} ou après.`,
  maxDate: (date) => `Doit être le ${date} ou avant.`,
  minLength: (n) => plural(n, { one: "Doit compter au moins # caractère.", other: "Doit compter au moins # caractères." }),
  maxLength: (n) => plural(n, { one: "Doit compter au plus # caractère.", other: "Doit compter au plus # caractères." }),
  slotsInvalid: "Doit être un identifiant de créneau ou une liste d'identifiants de créneaux, chacun une seule fois.",
  slotsIn: "Doit être l'un des créneaux de ce formulaire.",
  slotsOverlap: "Les créneaux choisis se chevauchent.",
  slotsClosed: "L'inscription à un créneau choisi n'est pas ouverte en ce moment.",
  slotsFull: (labels) =>
    labels.length <= 1
      ? `Le créneau ${labels[0] ?? ""} n'a plus de place.`
      : `Les créneaux ${list(labels)} n'ont plus de place.`,
  slotsMin: (n) => plural(n, { one: "Choisissez au moins # créneau.", other: "Choisissez au moins # créneaux." }),
  slotsMax: (n) => plural(n, { one: "Choisissez au plus # créneau.", other: "Choisissez au plus # créneaux." }),
  filesInvalid: "Doit être un identifiant de fichier ou une liste d'identifiants de fichiers.",
  fileIn: "Chaque fichier doit être un envoi de cette soumission pour ce champ.",
  fileType: "Ce type de fichier n'est pas accepté ici.",
  filesMin: (n) => plural(n, { one: "Au moins # fichier.", other: "Au moins # fichiers." }),
  filesMax: (n) => plural(n, { one: "Au plus # fichier.", other: "Au plus # fichiers." })
}
