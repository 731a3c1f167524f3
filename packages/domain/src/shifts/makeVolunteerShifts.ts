/** The VolunteerShifts service over ShiftPlaces, FormSchemas, RegistrationData and the limiter (CONTRACT §22). */
import { Clock, Effect, Layer, Option } from "effect"
import { placeCancelled } from "../events/LifecycleEvents.js"
import type { FormSchema } from "../forms/FormSchema.js"
import { FormsConfig } from "../FormsConfig.js"
import { underLimit } from "../limits/Limited.js"
import { type Client, writePolicy } from "../limits/LimitPolicy.js"
import { limitStep } from "../limits/limitStep.js"
import { RateLimiter } from "../limits/RateLimiter.js"
import { FormSchemas } from "../publicForms/FormSchemas.js"
import type { Actor } from "../shared/Actor.js"
import { defaultCancelUntilHours, mayCancel, valuesWithoutSlot } from "./cancelPlace.js"
import { ManageNotFound } from "./errors.js"
import { RegistrationData } from "./RegistrationData.js"
import { ShiftPlaces } from "./ShiftPlaces.js"
import { toTimeSlots } from "./timeSlots.js"
import { type ManagedPlace, VolunteerShifts } from "./VolunteerShifts.js"

export const makeVolunteerShifts = Effect.gen(function*() {
  const places = yield* ShiftPlaces
  const schemas = yield* FormSchemas
  const registration = yield* RegistrationData
  const limit = limitStep(yield* RateLimiter)
  const config = yield* FormsConfig

  /** The submission of a token and its form as stored now (whatever its status and window); 404 otherwise. */
  const resolve = Effect.fnUntraced(function*(token: string) {
    const managed = yield* places.findManaged(token)
    if (Option.isNone(managed)) return yield* new ManageNotFound({})
    const schema = yield* schemas.findCurrent(managed.value.schema_id)
    if (Option.isNone(schema)) return yield* new ManageNotFound({})
    return { submissionId: managed.value.submission_id, schema: schema.value }
  })

  const limited = (schema: FormSchema, client: Client) => limit(writePolicy, config.writeLimitPerHour, schema.id, client)

  /** The places with their slots as the public list shows them, in that list's order. */
  const view = Effect.fnUntraced(function*(schema: FormSchema, submissionId: string) {
    const held = yield* registration.placesOf(submissionId)
    const chosen = yield* registration.chosenSlots(held.map((place) => place.slot_id))
    const roots = [...new Set(chosen.map((slot) => slot.parent_event_id ?? slot.event_id))]
    const trees = yield* Effect.forEach(roots, (root) => registration.eventTree(root))
    const eventIds = [...new Set(chosen.map((slot) => slot.event_id))]
    const wanted = new Set(held.map((place) => place.slot_id))
    const available = (yield* registration.timeSlots(eventIds)).filter((slot) => wanted.has(slot.id))
    const byId = new Map(held.map((place) => [place.slot_id, place]))
    const list = toTimeSlots(available, trees.flat()).flatMap((slot): ReadonlyArray<ManagedPlace> => {
      const place = byId.get(slot.id)
      return place === undefined ? [] : [{ slot, status: place.status, position: place.position }]
    })
    return { form: { name: schema.name }, places: list }
  })

  const manage = Effect.fn("VolunteerShifts.manage")(function*(token: string, client: Client) {
    const { schema, submissionId } = yield* resolve(token)
    const rateLimit = yield* limited(schema, client)
    return yield* underLimit(rateLimit)(view(schema, submissionId))
  })

  const cancelPlace = Effect.fn("VolunteerShifts.cancelPlace")(function*(token: string, slotId: string, client: Client) {
    const { schema, submissionId } = yield* resolve(token)
    const rateLimit = yield* limited(schema, client)
    return yield* underLimit(rateLimit)(Effect.gen(function*() {
      const at = yield* Clock.currentTimeMillis
      const hours = schema.cancel_until_hours ?? defaultCancelUntilHours
      const slugs = schema.fields.filter((field) => field.type === "time_slots").map((field) => field.slug)
      yield* places.cancel({
        token,
        slot_id: slotId,
        at,
        decide: (place) => mayCancel(place, hours, at),
        values: (stored) => valuesWithoutSlot(stored, slugs, slotId),
        event: placeCancelled({
          submission_id: submissionId,
          slot_id: slotId,
          schema_id: schema.id,
          organisation_id: schema.organisation_id
        })
      })
    }))
  })

  const issueManageLink = Effect.fn("VolunteerShifts.issueManageLink")(function*(actor: Actor, submissionId: string) {
    return yield* places.issueManageLink(actor, submissionId, yield* Clock.currentTimeMillis)
  })

  return VolunteerShifts.of({ manage, cancelPlace, issueManageLink })
})

/** Needs ShiftPlaces, FormSchemas, RegistrationData, RateLimiter and FormsConfig. */
export const VolunteerShiftsLive = { layer: Layer.effect(VolunteerShifts, makeVolunteerShifts) } as const
