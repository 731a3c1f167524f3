/** A hand-written ArtistPortal whose answers are chosen by token and section id, to test the mapping. */
import { Effect, Layer } from "effect"
import {
  type AnswerLanguage,
  ArtistGone,
  chooseAnswerLanguage,
  ArtistPortal,
  type Client,
  type FormField,
  PortalNotFound,
  type PortalSectionView,
  RateLimited,
  Refused,
  type RateLimitState,
  SectionLocked,
  SectionNotFound,
  Unavailable,
  ValidationFailed,
  type Values
} from "@forms/domain"

export const portalToken = "portal-token-0123456789"
export const goneToken = "portal-gone-0123456789"
export const limitedToken = "portal-limited-0123456789"
export const downPortalToken = "portal-down-0123456789"

const t0 = Date.UTC(2026, 10, 22, 10, 0, 0)

export const portalLimiter = (remaining: number, reset = 60): RateLimitState => ({
  policy: "portal",
  limit: 30,
  window_seconds: 60,
  remaining,
  reset_seconds: reset
})

const fields: ReadonlyArray<FormField> = [
  {
    id: "f-arrival",
    section_id: "fsec-travel",
    slug: "arrival",
    label: "Arrival",
    type: "date",
    is_required: true,
    options: null,
    validation_rules: { min: "2027-08-01" },
    is_unique: false,
    position: 1,
    maps_to: "engagement.arrival"
  },
  {
    id: "f-mode",
    section_id: "fsec-travel",
    slug: "mode",
    label: "Mode",
    type: "select",
    is_required: false,
    options: [{ value: "car", label: "Car", tags: ["driving"] }],
    validation_rules: null,
    is_unique: false,
    position: 2,
    maps_to: null
  }
]

export const portalCalls: Array<{ readonly route: string; readonly client: Client; readonly values?: Values }> = []

/** The portal's advance form is in English (its default) and Dutch; the language is chosen once the token is known. */
const access = (token: string, client: Client, route: string, language?: AnswerLanguage) =>
  Effect.gen(function*() {
    if (token === downPortalToken) return yield* new Unavailable({ reason: "down" })
    if (token === goneToken) return yield* new ArtistGone({})
    if (token !== portalToken && token !== limitedToken) return yield* new PortalNotFound({})
    yield* chooseAnswerLanguage({ languages: ["en", "nl"] }, language)
    if (token === limitedToken) return yield* new Refused(new RateLimited({}), portalLimiter(0, 42))
    portalCalls.push({ route, client })
    return portalLimiter(29, 60)
  })

const view = (values: Values, submittedAt: number | null): PortalSectionView => ({
  section: {
    id: "as-travel",
    name: "Travel",
    status: submittedAt === null ? "pending" : "submitted",
    submitted_at: submittedAt
  },
  fields,
  values,
  // The advance form runs in English and Dutch (CONTRACT §19).
  languages: ["en", "nl"],
  translations: { nl: { fields: { arrival: { label: "Aankomst" }, mode: { options: { car: "Auto" } } } } }
})

const summary = {
  engagement: { id: "eng-1", event: { id: "ev-sat", name: "Saturday" } },
  artist: { id: "ma-1", name: "The Band" },
  sections: [
    { id: "as-travel", name: "Travel", status: "submitted" as const, submitted_at: t0, available: true, locked: true, due_at: t0 - 1000, locks_at: t0, overdue: false },
    { id: "as-hosp", name: "hospitality", status: "pending" as const, submitted_at: null, available: false, locked: false, due_at: t0 - 1, locks_at: null, overdue: true }
  ]
}

export const FakeArtistPortal = Layer.succeed(ArtistPortal, ArtistPortal.of({
  page: (token) =>
    Effect.gen(function*() {
      if (token === downPortalToken) return yield* new Unavailable({ reason: "down" })
      if (token === goneToken) return yield* new ArtistGone({})
      if (token !== portalToken && token !== limitedToken) return yield* new PortalNotFound({})
      return summary
    }),
  summary: (token, client, language) =>
    Effect.map(access(token, client, "summary", language), (rateLimit) => ({ value: summary, rateLimit })),
  section: (token, sectionId, client, language) =>
    Effect.gen(function*() {
      const rateLimit = yield* access(token, client, "section", language)
      if (sectionId !== "as-travel") return yield* new Refused(new SectionNotFound({}), portalLimiter(28, 59))
      return { value: view({ arrival: "2027-08-19" }, null), rateLimit }
    }),
  submitSection: (token, sectionId, values, client, language) =>
    Effect.gen(function*() {
      const rateLimit = yield* access(token, client, "submitSection", language)
      portalCalls.push({ route: "submitSection:values", client, values })
      if (sectionId === "as-locked") return yield* new Refused(new SectionLocked({}), portalLimiter(27, 58))
      if (sectionId !== "as-travel") return yield* new Refused(new SectionNotFound({}), portalLimiter(27, 58))
      if (!("arrival" in values)) {
        const fields = { arrival: [{ rule: "required" as const, message: "This field is required." }] }
        return yield* new Refused(new ValidationFailed({ fields }), portalLimiter(26, 57))
      }
      if (values["arrival"] === "boom") return yield* Effect.die(new Error("secret value in a defect"))
      return { value: view(values, t0 + 60_000), rateLimit }
    }),
  saveSection: (token, sectionId, values, client, language) =>
    Effect.gen(function*() {
      const rateLimit = yield* access(token, client, "saveSection", language)
      portalCalls.push({ route: "saveSection:values", client, values })
      if (sectionId === "as-locked") return yield* new Refused(new SectionLocked({}), portalLimiter(27, 58))
      if (sectionId !== "as-travel") return yield* new Refused(new SectionNotFound({}), portalLimiter(27, 58))
      return { value: view(values, null), rateLimit }
    })
}))
