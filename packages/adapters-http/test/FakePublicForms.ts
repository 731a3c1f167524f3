/** A hand-written PublicForms whose answers are chosen by token and submission id, to test the mapping. */
import { Effect, Layer } from "effect"
import {
  AlreadySubmitted,
  type Client,
  FormClosed,
  FormNotFound,
  type FormSchema,
  PublicForms,
  RateLimited,
  Refused,
  type RateLimitState,
  type Submission,
  SubmissionNotFound,
  TimeSlotsNotAvailable,
  Unavailable,
  ValidationFailed,
  type Values
} from "@forms/domain"
import { underLimit } from "@forms/domain/internal"

export const openToken = "open-token-0123456789"
export const closedToken = "closed-token-0123456789"
export const downToken = "down-token-0123456789"

const t0 = Date.UTC(2026, 10, 22, 10, 0, 0)

export const schema: FormSchema = {
  id: "fs-1",
  organisation_id: "org-1",
  revision: 1,
  event: { id: "ev-fest", name: "Festival 2027" },
  name: "Volunteers 2027",
  type: "volunteer",
  status: "published",
  public_token: openToken,
  previous_public_token: null,
  token_rotated_at: null,
  opens_at: null,
  closes_at: Date.UTC(2027, 6, 1),
  tags: ["volunteer"],
  sections: [
    { id: "s-b", name: "Second", position: 2 },
    { id: "s-a2", name: "About you too", position: 1 },
    { id: "s-a1", name: "About you", position: 1 }
  ],
  fields: [
    field("shirt", "s-a1", 2, { options: [{ value: "M", label: "Medium", tags: ["m"] }] }),
    field("email", "s-a1", 1, { type: "email", is_required: true, is_unique: true }),
    field("age", "s-b", 1, { type: "numeric", validation_rules: { min: 16, max: 99 } }),
    field("note", null, 1, { maps_to: "artist.note" }),
    field("code", "missing-section", 1, { validation_rules: { regex: "^[A-Z]+$" } })
  ]
}

function field(slug: string, section_id: string | null, position: number, extra: Partial<FormSchema["fields"][number]>) {
  return {
    id: `f-${slug}`,
    section_id,
    slug,
    label: slug.toUpperCase(),
    type: "text",
    is_required: false,
    options: null,
    validation_rules: null,
    is_unique: false,
    position,
    maps_to: null,
    ...extra
  }
}

export const limiter = (remaining: number, reset = 3600): RateLimitState => ({
  policy: "submit",
  limit: 10,
  window_seconds: 3600,
  remaining,
  reset_seconds: reset
})

export const submission = (id: string, values: Values, status: "draft" | "submitted" = "draft"): Submission => ({
  id,
  schema_id: "fs-1",
  status,
  idempotency_key: "key-0123456789abcdef",
  auto_save_count: 0,
  event_id: "ev-fest",
  subject_id: null,
  values,
  language: "en",
  created_at: t0,
  updated_at: t0 + 240_000,
  submitted_at: status === "submitted" ? t0 + 300_000 : null,
  version: 1
})

export interface Calls {
  readonly submit: Array<{ values: Values; client: Client }>
  readonly create: Array<{ key: string; values: Values | undefined }>
}

export const calls: Calls = { submit: [], create: [] }

const resolve = (token: string): Effect.Effect<FormSchema, FormNotFound | Unavailable> =>
  token === openToken || token === closedToken
    ? Effect.succeed(schema)
    : token === downToken
    ? Effect.fail(new Unavailable({ reason: "down" }))
    : Effect.fail(new FormNotFound())

const invalid = () =>
  new ValidationFailed({ fields: { email: [{ rule: "email", message: "Must be a valid email address." }] } })

/** The write limit's state of every create and save the fake answers (an exempt client gets none). */
export const writeLimiter = (client: Client): RateLimitState | undefined =>
  client.exempt ? undefined : { policy: "write", limit: 600, window_seconds: 3600, remaining: 599, reset_seconds: 3600 }

export const FakePublicForms = Layer.succeed(PublicForms, PublicForms.of({
  getForm: (token) => Effect.map(resolve(token), (s) => ({ schema: s, accepts_submissions: token === openToken })),
  createDraft: (token, input, client) =>
    Effect.gen(function*() {
      yield* resolve(token)
      calls.create.push({ key: input.idempotency_key, values: input.values })
      return yield* underLimit(writeLimiter(client))(Effect.gen(function*() {
        if (input.idempotency_key.startsWith("existing")) {
          return { submission: submission("sub-1", { email: "a@b.nl" }), created: false }
        }
        if (token === closedToken) return yield* new FormClosed({})
        if (input.values !== undefined && "email" in input.values) return yield* invalid()
        return { submission: submission("sub-new", input.values ?? {}), created: true }
      }))
    }),
  save: (token, id, values, client) =>
    Effect.gen(function*() {
      yield* resolve(token)
      if (id === "sub-boom") return yield* Effect.die(new Error("secret value in a defect"))
      if (id !== "sub-1" && id !== "sub-submitted") return yield* new SubmissionNotFound()
      return yield* underLimit(writeLimiter(client))(Effect.gen(function*() {
        if (id === "sub-submitted") return yield* new AlreadySubmitted({})
        if (token === closedToken) return yield* new FormClosed({})
        return submission("sub-1", values)
      }))
    }),
  submit: (token, id, values, client) =>
    Effect.gen(function*() {
      yield* resolve(token)
      if (id !== "sub-1" && id !== "sub-submitted" && id !== "sub-invalid" && id !== "sub-limited") {
        return yield* new SubmissionNotFound()
      }
      calls.submit.push({ values, client })
      if (id === "sub-limited") return yield* new Refused(new RateLimited({}), limiter(0, 1234))
      if (id === "sub-submitted") return yield* new Refused(new AlreadySubmitted({}), limiter(7, 3599))
      if (id === "sub-invalid") return yield* new Refused(invalid(), limiter(6, 3598))
      return { value: submission("sub-1", values, "submitted"), rateLimit: limiter(9, 3600) }
    }),
  timeSlots: (token) =>
    Effect.gen(function*() {
      yield* resolve(token)
      if (token === closedToken) return yield* new TimeSlotsNotAvailable()
      return [{
        id: "ts-1",
        name: "Night",
        date: "2027-08-20",
        start_time: "22:00",
        end_time: "02:00",
        starts_at: Date.parse("2027-08-20T20:00:00Z"),
        ends_at: Date.parse("2027-08-21T00:00:00Z"),
        duration_hours: 4,
        signup_opens_at: null,
        signup_closes_at: null,
        event_id: "ev-fest",
        event_name: "Festival 2027",
        capacity: 3,
        remaining: 1,
        waitlist: false,
        waitlisted: 0
      }]
    }),
  sections: (token) =>
    Effect.map(resolve(token), () => [{ id: "es-1", name: "Bar", type: "standard", position: 1 }])
}))
