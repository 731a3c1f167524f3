/**
 * SubmissionRecords, OutboxAdmin and Retention in memory, over the shared `InMemoryStore` the public-form ports
 * write (form schemas, submissions, idempotency keys, unique claims, slot places, outbox, audit log) and, when one
 * is in context, the `InMemoryPortalStore` the event handlers write (submission tags, contacts). Each method is
 * one critical section of the store: atomic within one process, as one transaction is on SQL.
 */
import { Effect, Layer, Option, Result, Stream } from "effect"
import { SubmissionErasedType } from "../../events/LifecycleEvents.js"
import type { FormSchema } from "../../forms/FormSchema.js"
import { SubmissionNotFound } from "../../publicForms/errors.js"
import type { Submission } from "../../publicForms/Submission.js"
import type { Actor } from "../../shared/Actor.js"
import { compareStrings } from "../../shared/compareStrings.js"
import type { CreatedKey } from "../../shared/paging.js"
import { ContactNotFound, EventNotDead, OutboxEventNotFound } from "../../submissionsOut/errors.js"
import { fileColumns, slotColumns } from "../../submissionsOut/exportFormat.js"
import { OutboxAdmin } from "../../submissionsOut/OutboxAdmin.js"
import { Retention } from "../../submissionsOut/Retention.js"
import { SubmissionRecords } from "../../submissionsOut/SubmissionRecords.js"
import {
  type AdminContact,
  type AdminSubmission,
  erasedPayload,
  type OutboxEntry,
  type OutboxState,
  type SubmissionFilter
} from "../../submissionsOut/SubmissionsOutModel.js"
import {
  appendAudit,
  idempotencyKey,
  type InMemoryData,
  type InMemoryOutboxRow,
  InMemoryStore,
  promoteSeeded
} from "../InMemoryStore.js"
import { newestFirst, oldestFirst, pagedByCreation } from "../paging.js"
import { submissionPlaces } from "../shifts/submissionPlaces.js"
import { type InMemoryPortalData, InMemoryPortalStore, makeInMemoryPortalData } from "../portal/InMemoryPortalStore.js"
import { organisationOf } from "../webhooks/webhookFanOut.js"


const stateOf = (row: InMemoryOutboxRow): OutboxState =>
  row.delivered_at !== null ? "delivered" : row.dead_at !== null ? "dead" : "pending"
const entryOf = (row: InMemoryOutboxRow): OutboxEntry => ({
  id: row.id, type: row.type, attempts: row.attempts, last_error: row.last_error,
  created_at: row.created_at, available_at: row.available_at, dead_at: row.dead_at
})

/** The union of the tags of the submissions linked to the contact, written onto it. */
export const recomputeContactTags = (portal: InMemoryPortalData, contactId: string): void => {
  const contact = portal.contacts.get(contactId)
  if (contact === undefined) return
  const tags = new Set<string>()
  for (const [submissionId, linked] of portal.submissionContacts) {
    if (linked === contactId) for (const tag of portal.submissionTags.get(submissionId) ?? []) tags.add(tag)
  }
  portal.contacts.set(contactId, { ...contact, tags: [...tags].sort(compareStrings) })
}

/** The export columns of §12: fields outside a section first, then by section position; within, position then slug. */
export const exportSlugs = (schema: FormSchema): ReadonlyArray<string> => {
  const sections = new Map(schema.sections.map((section) => [section.id, section.position]))
  const inSection = (sectionId: string | null) => sectionId !== null && sections.has(sectionId)
  return [...schema.fields].sort((a, b) =>
    Number(inSection(a.section_id)) - Number(inSection(b.section_id)) ||
    (sections.get(a.section_id ?? "") ?? 0) - (sections.get(b.section_id ?? "") ?? 0) ||
    compareStrings(a.section_id ?? "", b.section_id ?? "") ||
    a.position - b.position || compareStrings(a.slug, b.slug)
  ).map((field) => field.slug)
}

/** The adapters' view of the two stores, and the one erasure step both erase methods share. */
export const makeRecordsView = (data: InMemoryData, portal: InMemoryPortalData) => {
  const organisationOfSubmission = (s: Submission) => data.schemas.get(s.schema_id)?.organisation_id
  /** `now` decides which waiting places have expired (CONTRACT §22); a form without a time-slot field has no `places`. */
  const adminOf = (s: Submission, now = 0): AdminSubmission => ({
    id: s.id, form_id: s.schema_id, status: s.status, idempotency_key: s.idempotency_key, auto_save_count: s.auto_save_count,
    event_id: s.event_id, values: s.values, tags: portal.submissionTags.get(s.id) ?? [],
    contact_id: portal.submissionContacts.get(s.id) ?? null, language: s.language, created_at: s.created_at, updated_at: s.updated_at,
    submitted_at: s.submitted_at,
    ...(data.schemas.get(s.schema_id)?.fields.some((field) => field.type === "time_slots") === true
      ? { places: submissionPlaces(data, s.id, now) }
      : {})
  })
  const ownSubmission = (organisationId: string, id: string) => {
    const s = data.submissions.get(id)
    return s !== undefined && organisationOfSubmission(s) === organisationId ? s : undefined
  }
  const linkedTo = (contactId: string) =>
    [...portal.submissionContacts].filter(([, linked]) => linked === contactId).map(([id]) => id)

  /**
   * Deletes the submission with everything that refers to it (a draft swept, or a submission erased at `at`, its
   * freed places promoting waiting ones with events of `nextEventId`).
   */
  const deleteSubmission = (s: Submission, at = 0, nextEventId: () => string = () => "") => {
    data.submissions.delete(s.id)
    const key = idempotencyKey(s.schema_id, s.idempotency_key)
    if (data.keys.get(key) === s.id) data.keys.delete(key)
    for (const [claim, held] of data.claims) if (held.submission_id === s.id) data.claims.delete(claim)
    for (const [token, id] of data.manageTokens) if (id === s.id) data.manageTokens.delete(token)
    // Its places are given back; the earliest waiting places of those slots take them (CONTRACT §22).
    const freed = [...data.places].filter(([, of]) => of.delete(s.id)).map(([slotId]) => slotId)
    if (freed.length > 0) promoteSeeded(data, freed, at, nextEventId)
    for (let i = data.messages.length - 1; i >= 0; i--) {
      if (data.messages[i]?.message.submission_id === s.id) data.messages.splice(i, 1)
    }
    portal.submissionTags.delete(s.id)
    const contactId = portal.submissionContacts.get(s.id)
    portal.submissionContacts.delete(s.id)
    if (contactId === undefined) return
    const contact = portal.contacts.get(contactId)
    if (linkedTo(contactId).length > 0) recomputeContactTags(portal, contactId)
    else if (contact !== undefined) {
      portal.contacts.delete(contactId)
      portal.contactKeys.delete(`${contact.organisation_id}\u0000${contact.key}`)
      portal.contactCreatedAt.delete(contactId)
    }
  }

  /** Erasure of one submission of the actor's organisation (CONTRACT §12), inside the caller's critical section. */
  const erase = (actor: Actor, s: Submission, at: number, nextEventId: () => string) => {
    deleteSubmission(s, at, nextEventId)
    // The convention the webhook engine relies on: only the ids stay, and `erased: true`.
    data.outbox.forEach((row, index) => {
      if (row.payload["submission_id"] === s.id) data.outbox[index] = { ...row, payload: erasedPayload(row.payload) }
    })
    data.outbox.push({
      id: nextEventId(), type: SubmissionErasedType,
      payload: { submission_id: s.id, schema_id: s.schema_id, organisation_id: actor.organisation_id },
      attempts: 0, last_error: null, available_at: at, claimed_until: null, delivered_at: null, dead_at: null, created_at: at
    })
    appendAudit(data, actor, at, { action: "submission.erased", resource_type: "submission", resource_id: s.id })
  }

  return { adminOf, ownSubmission, linkedTo, deleteSubmission, erase, organisationOfSubmission } as const
}

/** The portal data in context, or an empty one of its own (no handler links contacts then: none are listed). */
export const portalDataOrEmpty = Effect.map(
  Effect.serviceOption(InMemoryPortalStore),
  Option.match({ onNone: () => makeInMemoryPortalData({ master_artists: [], engagements: [] }), onSome: (portal) => portal.data })
)

const make = Effect.gen(function*() {
  const store = yield* InMemoryStore
  const { data } = store
  const portal = yield* portalDataOrEmpty
  const view = makeRecordsView(data, portal)
  const nextEventId = () => store.nextId("event")

  const keeps = (filter: SubmissionFilter) => (s: AdminSubmission) =>
    (filter.status === undefined || s.status === filter.status) && (filter.since === undefined || s.updated_at >= filter.since)
  const inForm = (organisationId: string, formId: string, filter: SubmissionFilter, now: number) =>
    [...data.submissions.values()]
      .filter((s) => s.schema_id === formId && view.organisationOfSubmission(s) === organisationId)
      .map((s) => view.adminOf(s, now))
      .filter(keeps(filter))
  const contactOf = (contactId: string): AdminContact | undefined => {
    const contact = portal.contacts.get(contactId)
    if (contact === undefined) return undefined
    const linked = view.linkedTo(contactId).flatMap((id) => {
      const s = data.submissions.get(id)
      return s === undefined ? [] : [s]
    })
    return {
      id: contact.id, key: contact.key, tags: contact.tags, created_at: portal.contactCreatedAt.get(contact.id) ?? 0,
      submission_ids: linked.sort(oldestFirst).map((s) => s.id)
    }
  }

  const records = SubmissionRecords.of({
    formColumns: (organisationId, formId) =>
      store.atomically(() => {
        const schema = data.schemas.get(formId)
        if (schema === undefined || schema.organisation_id !== organisationId) return Result.succeed(Option.none())
        const slugs = exportSlugs(schema)
        const events = new Set(data.seed.events.filter((e) => e.organisation_id === organisationId).map((e) => e.id))
        const slots = slotColumns(slugs, schema.fields, data.seed.time_slots.filter((slot) => events.has(slot.event_id)))
        const fileSlugs = fileColumns(slugs, schema.fields)
        return Result.succeed(Option.some({
          slugs,
          ...(slots === undefined ? {} : { time_slots: slots }),
          ...(fileSlugs === undefined ? {} : { file_slugs: fileSlugs })
        }))
      }),
    list: (organisationId, formId, filter, page) =>
      store.atomically((now) => Result.succeed(pagedByCreation(inForm(organisationId, formId, filter, now), oldestFirst, page))),
    // Keyset pages of the list, so that a long export never holds the whole form at once.
    exportRows: (organisationId, formId, filter) =>
      Stream.paginate(undefined as CreatedKey | undefined, (after) =>
        Effect.map(
          store.atomically((now) =>
            Result.succeed(pagedByCreation(inForm(organisationId, formId, filter, now), oldestFirst, { limit: 500, after }))
          ),
          (page) => {
            const last = page.items.at(-1)
            const next: Option.Option<CreatedKey | undefined> = page.more && last !== undefined
              ? Option.some({ created_at: last.created_at, id: last.id })
              : Option.none()
            return [page.items, next] as const
          }
        )),
    find: (organisationId, id) =>
      store.atomically((now) =>
        Result.succeed(Option.map(Option.fromUndefinedOr(view.ownSubmission(organisationId, id)), (s) => view.adminOf(s, now)))
      ),
    erase: (actor, id, at) =>
      store.atomically((): Result.Result<void, SubmissionNotFound> => {
        const s = view.ownSubmission(actor.organisation_id, id)
        if (s === undefined) return Result.fail(new SubmissionNotFound())
        view.erase(actor, s, at, nextEventId)
        return Result.succeed(undefined)
      }),
    contacts: (organisationId, key, page) =>
      store.atomically(() => {
        const found = [...portal.contacts.values()]
          .filter((c) => c.organisation_id === organisationId && (key === undefined || c.key === key))
          .flatMap((c) => {
            const contact = contactOf(c.id)
            return contact === undefined ? [] : [contact]
          })
        return Result.succeed(pagedByCreation(found, newestFirst, page))
      }),
    eraseContact: (actor, id, at) =>
      store.atomically((): Result.Result<void, ContactNotFound> => {
        const contact = portal.contacts.get(id)
        if (contact === undefined || contact.organisation_id !== actor.organisation_id) return Result.fail(new ContactNotFound())
        const linked = view.linkedTo(id).flatMap((sid) => {
          const s = data.submissions.get(sid)
          return s === undefined ? [] : [s]
        })
        for (const s of linked.sort(oldestFirst)) view.erase(actor, s, at, nextEventId)
        portal.contacts.delete(id)
        portal.contactKeys.delete(`${contact.organisation_id}\u0000${contact.key}`)
        portal.contactCreatedAt.delete(id)
        appendAudit(data, actor, at, { action: "contact.erased", resource_type: "contact", resource_id: id })
        return Result.succeed(undefined)
      })
  })

  const outbox = OutboxAdmin.of({
    list: (organisationId, wanted, page) =>
      store.atomically(() => {
        const rows = data.outbox.filter((r) => (organisationId === undefined || organisationOf(r) === organisationId) && stateOf(r) === wanted)
        return Result.succeed(pagedByCreation(rows.map(entryOf), newestFirst, page))
      }),
    retry: (actor, id, at) =>
      store.atomically((): Result.Result<OutboxEntry, OutboxEventNotFound | EventNotDead> => {
        const index = data.outbox.findIndex((r) => r.id === id && (actor === undefined || organisationOf(r) === actor.organisation_id))
        const row = data.outbox[index]
        if (row === undefined) return Result.fail(new OutboxEventNotFound())
        if (stateOf(row) !== "dead") return Result.fail(new EventNotDead())
        const retried: InMemoryOutboxRow = { ...row, dead_at: null, available_at: at, claimed_until: null }
        data.outbox[index] = retried
        if (actor !== undefined) appendAudit(data, actor, at, { action: "outbox_event.retried", resource_type: "outbox_event", resource_id: id })
        return Result.succeed(entryOf(retried))
      })
  })

  // One sweep is one critical section: another one cannot run meanwhile, so every sweep runs.
  const retention = Retention.of({
    sweep: (cutoffs) =>
      store.atomically(() => {
        let drafts = 0
        for (const s of [...data.submissions.values()]) {
          // Drafts of public forms only: a portal draft (subject_id set) is the engagement's advance record.
          if (s.status === "draft" && s.subject_id === null && s.updated_at < cutoffs.draftsUpdatedBefore) {
            view.deleteSubmission(s)
            drafts += 1
          }
        }
        let payloads = 0
        data.outbox.forEach((row, index) => {
          if (row.delivered_at !== null && row.delivered_at < cutoffs.deliveredBefore && Object.keys(row.payload).length > 0) {
            data.outbox[index] = { ...row, payload: {} }
            payloads += 1
          }
        })
        return Result.succeed({ ran: true, drafts_deleted: drafts, payloads_emptied: payloads })
      })
  })

  return Layer.mergeAll(
    Layer.succeed(SubmissionRecords, records),
    Layer.succeed(OutboxAdmin, outbox),
    Layer.succeed(Retention, retention)
  )
})

/**
 * `InMemorySubmissionsOut.layer`: SubmissionRecords, OutboxAdmin and Retention over the `InMemoryStore` in context
 * (and its `InMemoryPortalStore` when there is one), e.g. `Layer.provideMerge(InMemory.layer(seed))`.
 */
export const InMemorySubmissionsOut = {
  layer: Layer.unwrap(make) as Layer.Layer<SubmissionRecords | OutboxAdmin | Retention, never, InMemoryStore>
} as const
