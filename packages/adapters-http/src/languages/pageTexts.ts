/**
 * The pages' own words (CONTRACT §19): the titles and sentences of a page's error, in English, Dutch, German and
 * French. A page whose token opened nothing has no form to choose among: its language is chosen among these four by
 * the request's `lang` and `Accept-Language`, as a form's would be.
 */
import { chooseLanguage, type LanguageRequest, type ServiceLanguage, serviceLanguageOf, serviceLanguages } from "@forms/domain"

export interface PageTexts {
  readonly formNotFound: string
  readonly portalNotFound: string
  readonly notFound: string
  readonly goneTitle: string
  readonly gone: string
  readonly unavailableTitle: string
  readonly unavailable: string
}

export const pageCatalogues: Readonly<Record<ServiceLanguage, PageTexts>> = {
  en: {
    formNotFound: "Form not found",
    portalNotFound: "Portal not found",
    notFound: "This link does not lead to a form or portal. It may have expired: ask the organiser for a new one.",
    goneTitle: "No longer available",
    gone: "The artist of this portal no longer exists.",
    unavailableTitle: "Unavailable",
    unavailable: "The service cannot answer right now. Please reload the page in a moment."
  },
  nl: {
    formNotFound: "Formulier niet gevonden",
    portalNotFound: "Portaal niet gevonden",
    notFound: "Deze link leidt niet naar een formulier of portaal. Misschien is hij verlopen: vraag de organisator om een nieuwe.",
    goneTitle: "Niet meer beschikbaar",
    gone: "De artiest van dit portaal bestaat niet meer.",
    unavailableTitle: "Niet beschikbaar",
    unavailable: "De dienst kan nu niet antwoorden. Laad de pagina zo dadelijk opnieuw."
  },
  de: {
    formNotFound: "Formular nicht gefunden",
    portalNotFound: "Portal nicht gefunden",
    notFound: "Dieser Link führt zu keinem Formular und keinem Portal. Vielleicht ist er abgelaufen: Bitten Sie die Veranstalter um einen neuen.",
    goneTitle: "Nicht mehr verfügbar",
    gone: "Die Künstlerin oder der Künstler dieses Portals existiert nicht mehr.",
    unavailableTitle: "Nicht verfügbar",
    unavailable: "Der Dienst kann gerade nicht antworten. Bitte laden Sie die Seite gleich neu."
  },
  fr: {
    formNotFound: "Formulaire introuvable",
    portalNotFound: "Portail introuvable",
    notFound: "Ce lien ne mène à aucun formulaire ni portail. Il a peut-être expiré : demandez-en un nouveau à l'organisateur.",
    goneTitle: "Plus disponible",
    gone: "L'artiste de ce portail n'existe plus.",
    unavailableTitle: "Indisponible",
    unavailable: "Le service ne peut pas répondre pour le moment. Rechargez la page dans un instant."
  }
}

/** The language of a page that opened no form: one of the four, by `lang`, then `Accept-Language`, else English. */
export const pageLanguageOf = (request: LanguageRequest): ServiceLanguage =>
  serviceLanguageOf(chooseLanguage({ languages: serviceLanguages }, request).language)
