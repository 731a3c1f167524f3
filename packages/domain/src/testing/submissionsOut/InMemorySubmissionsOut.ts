/**
 * SubmissionRecords, OutboxAdmin and Retention in memory, over a state of their own (forms with their export
 * columns, submissions, contacts, claims, outbox, audit), with the fixture the conformance suite stores
 * through. Each method is one synchronous step: atomic within one process.
 */
import { Effect, Layer, Option, Stream } from "effect"
import { SubmissionNotFound } from "../../Errors.js"
import type { Actor, CreatedKey, Page, PageRequest } from "../../organiser/OrganiserModel.js"
import { ContactNotFound, EventNotDead, OutboxEventNotFound } from "../../organiser/SubmissionsOutErrors.js"
import {
  type AdminContact,
  type AdminSubmission,
  erasedPayload,
  type OutboxEntry,
  type OutboxState,
  type SubmissionFilter
} from "../../organiser/SubmissionsOutModel.js"
import { OutboxAdmin } from "../../ports/OutboxAdmin.js"
import { Retention } from "../../ports/Retention.js"
import { SubmissionRecords } from "../../ports/SubmissionRecords.js"
import { compareStrings } from "../../registration/compareStrings.js"
import { type FixtureField, SubmissionsOutFixture } from "./SubmissionsOutFixture.js"

interface Form { readonly organisation_id: string; readonly fields: ReadonlyArray<FixtureField> }
interface Stored extends AdminSubmission { readonly organisation_id: string; readonly portal: boolean }
interface Contact { readonly id: string; readonly organisation_id: string; readonly key: string; readonly created_at: number }
interface Row {
  readonly id: string
  readonly type: string
  payload: Readonly<Record<string, unknown>>
  readonly organisation_id: string
  attempts: number
  readonly last_error: string | null
  readonly created_at: number
  available_at: number
  delivered_at: number | null
  dead_at: number | null
}

let counter = 0
const newId = (): string => {
  counter += 1
  return `00000000-0000-4000-9000-${counter.toString(16).padStart(12, "0")}`
}

const ascending = (a: CreatedKey, b: CreatedKey) => a.created_at - b.created_at || compareStrings(a.id, b.id)
const descending = (a: CreatedKey, b: CreatedKey) => ascending(b, a)

const pageOf = <A extends CreatedKey>(rows: ReadonlyArray<A>, page: PageRequest<CreatedKey>, order: "asc" | "desc"): Page<A> => {
  const compare = order === "asc" ? ascending : descending
  const after = page.after
  const sorted = [...rows].sort(compare).filter((row) => after === undefined || compare(row, after) > 0)
  return { items: sorted.slice(0, page.limit), more: sorted.length > page.limit }
}

const stateOf = (row: Row): OutboxState => (row.delivered_at !== null ? "delivered" : row.dead_at !== null ? "dead" : "pending")
const entryOf = (row: Row): OutboxEntry => ({
  id: row.id, type: row.type, attempts: row.attempts, last_error: row.last_error,
  created_at: row.created_at, available_at: row.available_at, dead_at: row.dead_at
})
const publicOf = ({ organisation_id: _o, portal: _p, ...submission }: Stored): AdminSubmission => submission

const makeState = () => ({
  organisations: new Set<string>(),
  forms: new Map<string, Form>(),
  submissions: new Map<string, Stored>(),
  contacts: new Map<string, Contact>(),
  claims: new Map<string, string>(),
  outbox: [] as Array<Row>,
  audit: [] as Array<{ organisation_id: string; action: string; resource_id: string }>,
  sweeping: false
})

const make = () => {
  const state = makeState()

  const contactTags = (contactId: string) =>
    [...new Set([...state.submissions.values()].filter((s) => s.contact_id === contactId).flatMap((s) => s.tags))].sort(compareStrings)

  const contactOf = (c: Contact): AdminContact => ({
    id: c.id, key: c.key, tags: contactTags(c.id), created_at: c.created_at,
    submission_ids: [...state.submissions.values()].filter((s) => s.contact_id === c.id).sort(ascending).map((s) => s.id)
  })

  const keeps = (filter: SubmissionFilter) => (s: Stored) =>
    (filter.status === undefined || s.status === filter.status) && (filter.since === undefined || s.updated_at >= filter.since)

  const inForm = (organisationId: string, formId: string, filter: SubmissionFilter) =>
    [...state.submissions.values()].filter((s) => s.organisation_id === organisationId && s.form_id === formId && keeps(filter)(s))

  const record = (organisationId: string, type: string, payload: Record<string, unknown>, at: number) => {
    const id = newId()
    state.outbox.push({ id, type, payload, organisation_id: organisationId, attempts: 0, last_error: null, created_at: at, available_at: at, delivered_at: null, dead_at: null })
    return id
  }

  /** Erasure of one stored submission; the caller found it in the actor's organisation. */
  const eraseStored = (actor: Actor, s: Stored, at: number) => {
    for (const [key, owner] of state.claims) if (owner === s.id) state.claims.delete(key)
    for (const row of state.outbox) {
      if (row.payload["submission_id"] === s.id) row.payload = erasedPayload(row.payload)
    }
    state.submissions.delete(s.id)
    if (s.contact_id !== null && ![...state.submissions.values()].some((o) => o.contact_id === s.contact_id)) {
      state.contacts.delete(s.contact_id)
    }
    record(s.organisation_id, "submission.erased", { submission_id: s.id, schema_id: s.form_id, organisation_id: s.organisation_id }, at)
    state.audit.push({ organisation_id: actor.organisation_id, action: "submission.erased", resource_id: s.id })
  }

  const records = SubmissionRecords.of({
    formColumns: (organisationId, formId) =>
      Effect.sync(() => {
        const form = state.forms.get(formId)
        if (form === undefined || form.organisation_id !== organisationId) return Option.none()
        const sorted = [...form.fields].sort((a, b) =>
          Number(a.section !== undefined) - Number(b.section !== undefined) ||
          (a.section?.position ?? 0) - (b.section?.position ?? 0) || compareStrings(a.section?.id ?? "", b.section?.id ?? "") ||
          a.position - b.position || compareStrings(a.slug, b.slug))
        return Option.some({ slugs: sorted.map((f) => f.slug) })
      }),
    list: (organisationId, formId, filter, page) =>
      Effect.sync(() => {
        const result = pageOf(inForm(organisationId, formId, filter), page, "asc")
        return { items: result.items.map(publicOf), more: result.more }
      }),
    exportRows: (organisationId, formId, filter) =>
      Stream.suspend(() => Stream.fromIterable(inForm(organisationId, formId, filter).sort(ascending).map(publicOf))),
    find: (organisationId, id) =>
      Effect.sync(() => {
        const s = state.submissions.get(id)
        return s === undefined || s.organisation_id !== organisationId ? Option.none() : Option.some(publicOf(s))
      }),
    erase: (actor, id, at) =>
      Effect.suspend(() => {
        const s = state.submissions.get(id)
        if (s === undefined || s.organisation_id !== actor.organisation_id) return Effect.fail(new SubmissionNotFound())
        eraseStored(actor, s, at)
        return Effect.void
      }),
    contacts: (organisationId, key, page) =>
      Effect.sync(() => {
        const found = [...state.contacts.values()].filter((c) => c.organisation_id === organisationId && (key === undefined || c.key === key))
        const result = pageOf(found, page, "desc")
        return { items: result.items.map(contactOf), more: result.more }
      }),
    eraseContact: (actor, id, at) =>
      Effect.suspend(() => {
        const contact = state.contacts.get(id)
        if (contact === undefined || contact.organisation_id !== actor.organisation_id) return Effect.fail(new ContactNotFound())
        for (const s of [...state.submissions.values()].filter((s) => s.contact_id === id).sort(ascending)) eraseStored(actor, s, at)
        state.contacts.delete(id)
        state.audit.push({ organisation_id: actor.organisation_id, action: "contact.erased", resource_id: id })
        return Effect.void
      })
  })

  const outbox = OutboxAdmin.of({
    list: (organisationId, wanted, page) =>
      Effect.sync(() => {
        const rows = state.outbox.filter((r) => (organisationId === undefined || r.organisation_id === organisationId) && stateOf(r) === wanted)
        const result = pageOf(rows.map((r) => ({ ...entryOf(r) })), page, "desc")
        return result
      }),
    retry: (actor, id, at) =>
      Effect.suspend((): Effect.Effect<OutboxEntry, OutboxEventNotFound | EventNotDead> => {
        const row = state.outbox.find((r) => r.id === id && (actor === undefined || r.organisation_id === actor.organisation_id))
        if (row === undefined) return Effect.fail(new OutboxEventNotFound())
        if (stateOf(row) !== "dead") return Effect.fail(new EventNotDead())
        row.dead_at = null
        row.available_at = at
        if (actor !== undefined) state.audit.push({ organisation_id: actor.organisation_id, action: "outbox_event.retried", resource_id: id })
        return Effect.succeed(entryOf(row))
      })
  })

  const retention = Retention.of({
    sweep: (cutoffs) =>
      Effect.sync(() => {
        if (state.sweeping) return { ran: false, drafts_deleted: 0, payloads_emptied: 0 }
        let drafts = 0
        for (const s of [...state.submissions.values()]) {
          if (s.status === "draft" && !s.portal && s.updated_at < cutoffs.draftsUpdatedBefore) {
            state.submissions.delete(s.id)
            drafts += 1
          }
        }
        let payloads = 0
        for (const row of state.outbox) {
          if (row.delivered_at !== null && row.delivered_at < cutoffs.deliveredBefore && Object.keys(row.payload).length > 0) {
            row.payload = {}
            payloads += 1
          }
        }
        return { ran: true, drafts_deleted: drafts, payloads_emptied: payloads }
      })
  })

  const fixture = SubmissionsOutFixture.of({
    newActor: Effect.sync(() => {
      const id = newId()
      state.organisations.add(id)
      return { organisation_id: id, api_key_id: null }
    }),
    addForm: (organisationId, fields) =>
      Effect.sync(() => {
        const id = newId()
        state.forms.set(id, { organisation_id: organisationId, fields })
        return id
      }),
    addSubmission: (input) =>
      Effect.sync(() => {
        const form = state.forms.get(input.form_id)
        if (form === undefined) throw new Error("unknown form")
        if ([...state.submissions.values()].some((s) => s.form_id === input.form_id && s.idempotency_key === input.idempotency_key)) {
          throw new Error("duplicate idempotency key")
        }
        const id = newId()
        let contactId: string | null = null
        if (input.contact_key !== undefined) {
          const existing = [...state.contacts.values()].find((c) => c.organisation_id === form.organisation_id && c.key === input.contact_key)
          const contact = existing ?? { id: newId(), organisation_id: form.organisation_id, key: input.contact_key, created_at: input.created_at }
          state.contacts.set(contact.id, contact)
          contactId = contact.id
        }
        const values: Record<string, unknown> = Object.create(null) as Record<string, unknown>
        for (const [k, v] of Object.entries(input.values)) values[k] = v
        state.submissions.set(id, {
          id, form_id: input.form_id, organisation_id: form.organisation_id, status: input.status,
          idempotency_key: input.idempotency_key, auto_save_count: 0, event_id: null, values,
          tags: [...new Set(input.tags ?? [])].sort(compareStrings), contact_id: contactId,
          created_at: input.created_at, updated_at: input.updated_at ?? input.created_at,
          submitted_at: input.status === "submitted" ? input.updated_at ?? input.created_at : null, portal: input.portal ?? false
        })
        for (const claim of input.claims ?? []) {
          const key = `${input.form_id}\u0000${claim.slug}\u0000${claim.value}`
          if (state.claims.has(key)) throw new Error("claim taken")
          state.claims.set(key, id)
        }
        if (input.event !== undefined) {
          const eventId = record(form.organisation_id, "submission.submitted", { submission_id: id, schema_id: input.form_id, organisation_id: form.organisation_id, event_id: null, values: input.values, submitted_at: new Date(input.created_at).toISOString() }, input.created_at)
          const row = state.outbox.find((r) => r.id === eventId)
          if (row !== undefined && input.event === "delivered") row.delivered_at = input.created_at
          if (row !== undefined && input.event === "dead") row.dead_at = input.created_at
        }
        return id
      }),
    addEvent: (event) =>
      Effect.sync(() => {
        const id = newId()
        const at = event.at ?? event.created_at
        state.outbox.push({
          id, type: "submission.submitted", payload: event.payload ?? { organisation_id: event.organisation_id },
          organisation_id: event.organisation_id, attempts: event.state === "dead" ? 10 : 1, last_error: event.state === "dead" ? "failed" : null,
          created_at: event.created_at, available_at: event.created_at,
          delivered_at: event.state === "delivered" ? at : null, dead_at: event.state === "dead" ? at : null
        })
        return id
      }),
    claimsOf: (submissionId) => Effect.sync(() => [...state.claims.values()].filter((owner) => owner === submissionId).length),
    exists: (submissionId) => Effect.sync(() => state.submissions.has(submissionId)),
    eventsOf: (submissionId) =>
      Effect.sync(() => state.outbox.filter((r) => r.payload["submission_id"] === submissionId).map((r) => ({ id: r.id, type: r.type, payload: r.payload }))),
    eventPayload: (eventId) => Effect.sync(() => state.outbox.find((r) => r.id === eventId)?.payload ?? {}),
    audit: (organisationId) =>
      Effect.sync(() => state.audit.filter((a) => a.organisation_id === organisationId).map(({ action, resource_id }) => ({ action, resource_id })))
  })

  return Layer.mergeAll(
    Layer.succeed(SubmissionRecords, records),
    Layer.succeed(OutboxAdmin, outbox),
    Layer.succeed(Retention, retention),
    Layer.succeed(SubmissionsOutFixture, fixture)
  )
}

/** `InMemorySubmissionsOut.layer`: SubmissionRecords, OutboxAdmin, Retention and the conformance fixture, one fresh state. */
export const InMemorySubmissionsOut = {
  get layer() {
    return make()
  }
} as const
