/** The state behind the in-memory adapters: one store, each port method one synchronous critical section over it. */
import { Clock, Context, Effect, Layer, Result } from "effect"
import type { EventType } from "../events/Outbox.js"
import type { FormSchema } from "../forms/FormSchema.js"
import type { Message, MessageLink } from "../messages/Message.js"
import type { AuditEntry, AuditRecord } from "../organiser/catalog/CatalogModel.js"
import type { Submission } from "../publicForms/Submission.js"
import type { Actor } from "../shared/Actor.js"
import { Unavailable } from "../shared/errors.js"
import type { ChosenSlot } from "../shifts/RegistrationData.js"
import { type ConformanceSeed, formSchemaFromSeed } from "./Seed.js"
import { placePromoted } from "../events/LifecycleEvents.js"
import { type MemoryPlaces, type PromotableSlot, promoteIn, waitingIds } from "./shifts/inMemoryPlaces.js"
import { seedSlotInstants } from "./shifts/seedSlotInstants.js"
import { type InMemoryWebhookState, makeWebhookState } from "./webhooks/InMemoryWebhookState.js"

export interface InMemoryOutboxRow {
  readonly id: string
  readonly type: EventType
  readonly payload: Readonly<Record<string, unknown>>
  readonly attempts: number
  readonly last_error: string | null
  /** Epoch ms: due from then on. */
  readonly available_at: number
  /** Epoch ms: the lease end of an attempt claimed and not answered yet (null when none is outstanding). */
  readonly claimed_until: number | null
  readonly delivered_at: number | null
  readonly dead_at: number | null
  readonly created_at: number
}

/** A new event's outbox row: due at `at`, never attempted. */
export const newOutboxRow = (
  id: string,
  event: { readonly type: EventType; readonly payload: Readonly<Record<string, unknown>> },
  at: number
): InMemoryOutboxRow => ({
  id,
  type: event.type,
  payload: event.payload,
  attempts: 0,
  last_error: null,
  available_at: at,
  claimed_until: null,
  delivered_at: null,
  dead_at: null,
  created_at: at
})

export interface InMemoryClaim {
  readonly schema_id: string
  readonly slug: string
  readonly normalized: string
  readonly submission_id: string
}

/** A recorded message and when it is next due: a retry's time, or the end of a claim's lease. */
export interface InMemoryMessageRow {
  message: Message
  due_at: number
  /** The link it carries (its token sealed), when it carries one. */
  link?: MessageLink | undefined
}

/** An entry of the organiser audit log (CONTRACT §12) and the organisation it belongs to. */
export interface InMemoryAuditRow {
  readonly organisation_id: string
  row: AuditEntry
}

/** Mutable on purpose: only the adapters' critical sections (and tests, between effects) touch it. */
export interface InMemoryData {
  readonly seed: ConformanceSeed
  readonly schemas: Map<string, FormSchema>
  readonly submissions: Map<string, Submission>
  /** `${schema_id}\u0000${idempotency_key}` → submission id. */
  readonly keys: Map<string, string>
  /** `${schema_id}\u0000${slug}\u0000${normalized}` → claim. */
  readonly claims: Map<string, InMemoryClaim>
  readonly outbox: Array<InMemoryOutboxRow>
  /** Messages recorded by their causes (a submit), in order. */
  readonly messages: Array<InMemoryMessageRow>
  /** Slot id → submission id → its place (CONTRACT §15, §22); a deleted submission holds nothing. */
  readonly places: MemoryPlaces
  /** Manage token → submission id (CONTRACT §22): one token per submission, a new one replaces the old. */
  readonly manageTokens: Map<string, string>
  /** Limiter key → epoch ms of the counted hits, oldest first. */
  readonly hits: Map<string, Array<number>>
  unavailable: string | null
  sequence: number
  /** Webhook endpoints and deliveries (`InMemoryWebhookStore`); the outbox fans handled events out to them. */
  readonly webhooks: InMemoryWebhookState
  /**
   * The organiser audit log, shared by every in-memory adapter built over this store: the organiser ports
   * (`InMemoryOrganiser`) read and append it, as do erasure, outbox retries and webhook changes.
   */
  readonly audit: Array<InMemoryAuditRow>
}

export interface InMemoryStoreShape {
  readonly data: InMemoryData
  /**
   * Runs `step` as one critical section at Clock time: a yield first (so that concurrent fibers really
   * interleave between steps), then a synchronous read-modify-write that no other fiber can split.
   */
  readonly atomically: <A, E>(step: (now: number) => Result.Result<A, E>) => Effect.Effect<A, E | Unavailable>
  /** A fresh UUID (v4 layout, from a counter: stable across runs). */
  readonly nextId: (kind: "submission" | "event" | "message") => string
  readonly submissions: Effect.Effect<ReadonlyArray<Submission>>
  readonly submission: (id: string) => Effect.Effect<Submission | undefined>
  readonly outbox: Effect.Effect<ReadonlyArray<InMemoryOutboxRow>>
  readonly claims: Effect.Effect<ReadonlyArray<InMemoryClaim>>
  readonly hits: (key: string) => Effect.Effect<ReadonlyArray<number>>
  /** From now on every port method fails with Unavailable(reason), until set back to null. */
  readonly setUnavailable: (reason: string | null) => Effect.Effect<void>
  /** Changes a stored schema (rotate a token, close a form…); the revision moves on. */
  readonly updateSchema: (id: string, change: (schema: FormSchema) => FormSchema) => Effect.Effect<void>
}

export const claimKey = (schemaId: string, slug: string, normalized: string): string =>
  `${schemaId}\u0000${slug}\u0000${normalized}`
const held = (data: InMemoryData, id: string): boolean => data.submissions.get(id)?.status === "submitted"

/** The confirmed places on the slot (places of deleted submissions are free again). */
export const holdersOf = (data: InMemoryData, slotId: string): number =>
  [...(data.places.get(slotId) ?? [])].filter(([id, place]) => place.status === "confirmed" && held(data, id)).length

/** The waiting places of the slot at `now` (none once it started: they expired). */
export const waitlistedOf = (data: InMemoryData, slotId: string, startsAt: number, now: number): number =>
  waitingIds(data.places, slotId, startsAt <= now).filter((id) => held(data, id)).length

/** Promotes on the seeded slots among `slotIds` and records each `place.promoted` in the outbox. */
export const promoteSeeded = (data: InMemoryData, slotIds: ReadonlyArray<string>, now: number, nextId: () => string): void => {
  const wanted = new Set(slotIds)
  const slots = data.seed.time_slots.filter((slot) => wanted.has(slot.id)).map((slot) => ({
    id: slot.id,
    capacity: slot.capacity ?? null,
    starts_at: seedSlotInstants(data.seed, slot).starts_at
  }))
  promoteSlots(data, slots, now, nextId)
}

/** Promotes on `slots` and records each `place.promoted` in the outbox. */
export const promoteSlots = (data: InMemoryData, slots: ReadonlyArray<PromotableSlot>, now: number, nextId: () => string): void => {
  const events = promoteIn(data.places, slots, now, (slotId, submissionId) => {
    const submission = data.submissions.get(submissionId)
    const schema = submission === undefined ? undefined : data.schemas.get(submission.schema_id)
    return placePromoted({
      submission_id: submissionId,
      slot_id: slotId,
      schema_id: submission?.schema_id ?? "",
      organisation_id: schema?.organisation_id ?? ""
    })
  })
  for (const event of events) data.outbox.push(newOutboxRow(nextId(), event, now))
}

/** Appends an audit entry for the actor (inside a critical section); its id is a fresh UUID of this store. */
export const appendAudit = (data: InMemoryData, actor: Actor, at: number, record: AuditRecord): void => {
  data.sequence += 1
  const id = `00000000-0000-4000-c000-${data.sequence.toString(16).padStart(12, "0")}`
  data.audit.push({ organisation_id: actor.organisation_id, row: { id, at, api_key_id: actor.api_key_id, ...record } })
}

/** Issues a manage token for the submission in memory (a counter's, not a secret: memory is for tests), replacing its old one. */
export const issueManageToken = (data: InMemoryData, submissionId: string): string => {
  for (const [token, id] of data.manageTokens) if (id === submissionId) data.manageTokens.delete(token)
  data.sequence += 1
  const token = `manage-${data.sequence.toString(36).padStart(8, "0")}-${submissionId}`
  data.manageTokens.set(token, submissionId)
  return token
}

export const idempotencyKey = (schemaId: string, key: string): string => `${schemaId}\u0000${key}`

export const makeInMemoryStore = (seed: ConformanceSeed): InMemoryStoreShape => {
  const data: InMemoryData = {
    seed,
    schemas: new Map(seed.form_schemas.map((schema) => [schema.id, formSchemaFromSeed(seed, schema)])),
    submissions: new Map(),
    keys: new Map(),
    claims: new Map(),
    outbox: [],
    messages: [],
    places: new Map(),
    manageTokens: new Map(),
    hits: new Map(),
    unavailable: null,
    sequence: 0,
    webhooks: makeWebhookState(),
    audit: []
  }
  const atomically = <A, E>(step: (now: number) => Result.Result<A, E>): Effect.Effect<A, E | Unavailable> =>
    Effect.yieldNow.pipe(
      Effect.andThen(Clock.currentTimeMillis),
      Effect.flatMap((now) =>
        Effect.suspend((): Effect.Effect<A, E | Unavailable> =>
          data.unavailable === null
            ? Effect.fromResult(step(now))
            : Effect.fail(new Unavailable({ reason: data.unavailable }))
        )
      )
    )
  const nextId = (kind: "submission" | "event" | "message"): string => {
    data.sequence += 1
    return `00000000-0000-4000-${kind === "submission" ? "8" : kind === "event" ? "9" : "a"}000-${data.sequence.toString(16).padStart(12, "0")}`
  }
  return {
    data,
    atomically,
    nextId,
    submissions: Effect.sync(() => [...data.submissions.values()]),
    submission: (id) => Effect.sync(() => data.submissions.get(id)),
    outbox: Effect.sync(() => [...data.outbox]),
    claims: Effect.sync(() => [...data.claims.values()]),
    hits: (key) => Effect.sync(() => [...(data.hits.get(key) ?? [])]),
    setUnavailable: (reason) =>
      Effect.sync(() => {
        data.unavailable = reason
      }),
    updateSchema: (id, change) =>
      Effect.sync(() => {
        const schema = data.schemas.get(id)
        if (schema === undefined) return
        const changed = change(schema)
        data.schemas.set(id, { ...changed, revision: schema.revision + 1 })
      })
  }
}

/** The store of one in-memory layer: tests read and change the adapters' state through it. */
export class InMemoryStore extends Context.Service<InMemoryStore, InMemoryStoreShape>()(
  "@forms/domain/memory/InMemoryStore"
) {
  static readonly layer = (seed: ConformanceSeed) =>
    Layer.sync(InMemoryStore, () => InMemoryStore.of(makeInMemoryStore(seed)))
}

/** The seeded slots among `ids` as the `time_slots` rules read them at `now` (unknown ids left out). */
export const chosenSlots = (data: InMemoryData, ids: ReadonlyArray<string>, now: number): Array<ChosenSlot> => {
  const wanted = new Set(ids)
  return data.seed.time_slots.filter((slot) => wanted.has(slot.id)).map((slot) => ({
    id: slot.id,
    name: slot.name,
    event_id: slot.event_id,
    parent_event_id: data.seed.events.find((event) => event.id === slot.event_id)?.parent_event_id ?? null,
    date: slot.date,
    start_time: slot.start_time,
    end_time: slot.end_time,
    ...seedSlotInstants(data.seed, slot),
    capacity: slot.capacity ?? null,
    holders: holdersOf(data, slot.id),
    waitlist: slot.waitlist ?? false,
    waitlisted: waitlistedOf(data, slot.id, seedSlotInstants(data.seed, slot).starts_at, now)
  }))
}
