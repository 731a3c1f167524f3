/**
 * The conformance fixture of "Submissions out" in memory: rows stored straight into the shared `InMemoryStore`
 * and `InMemoryPortalStore`, where the public-form ports and the event handlers store them.
 */
import { Effect, Layer } from "effect"
import { claimKey, idempotencyKey, InMemoryStore } from "../../memory/InMemoryStore.js"
import { InMemoryPortalStore } from "../../memory/portal/InMemoryPortalStore.js"
import { emptySeed, formSchemaFromSeed, seedField, seedSchemaDefaults } from "../../memory/Seed.js"
import { InMemoryFileStorage } from "../../memory/files/InMemoryFileStorage.js"
import { InMemoryFileUploads } from "../../memory/files/InMemoryFileUploads.js"
import { InMemorySubmissionsOut, recomputeContactTags } from "../../memory/submissionsOut/InMemorySubmissionsOut.js"
import type { Submission } from "../../publicForms/Submission.js"
import { SubmissionsOutFixture } from "./SubmissionsOutFixture.js"

const sortedSet = (tags: ReadonlyArray<string>) => [...new Set(tags)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))

const make = Effect.gen(function*() {
  const store = yield* InMemoryStore
  const { data } = store
  const portal = (yield* InMemoryPortalStore).data
  let organisations = 0
  let contacts = 0

  return SubmissionsOutFixture.of({
    newActor: Effect.sync(() => {
      organisations += 1
      return { organisation_id: `org-out-${organisations}`, api_key_id: null }
    }),
    addForm: (organisationId, fields) =>
      Effect.sync(() => {
        const id = store.nextId("submission").replace("-8000-", "-f000-")
        const sections = new Map(fields.flatMap((f) => (f.section === undefined ? [] : [[f.section.id, f.section.position] as const])))
        data.schemas.set(id, formSchemaFromSeed(data.seed, {
          ...seedSchemaDefaults, id, organisation_id: organisationId, event_id: null, name: "Form", type: "volunteer",
          sections: [...sections].map(([section, position]) => ({ id: section, name: "S", position })),
          fields: fields.map((f) => seedField({ id: `${id}-${f.slug}`, slug: f.slug, position: f.position, section_id: f.section?.id ?? null }))
        }))
        return id
      }),
    addSubmission: (input) =>
      Effect.sync(() => {
        const schema = data.schemas.get(input.form_id)
        if (schema === undefined) throw new Error("unknown form")
        const key = idempotencyKey(input.form_id, input.idempotency_key)
        if (data.keys.has(key)) throw new Error("duplicate idempotency key")
        const id = store.nextId("submission")
        const updated = input.updated_at ?? input.created_at
        const values = Object.create(null) as Record<string, unknown>
        for (const [k, v] of Object.entries(input.values)) values[k] = v
        const submission: Submission = {
          id, schema_id: input.form_id, status: input.status, idempotency_key: input.idempotency_key, auto_save_count: 0,
          event_id: null, subject_id: input.portal === true ? "artist-1" : null, values: values as Submission["values"], language: input.language ?? "en",
          created_at: input.created_at, updated_at: updated, submitted_at: input.status === "submitted" ? updated : null, version: 1
        }
        for (const claim of input.claims ?? []) {
          if (data.claims.has(claimKey(input.form_id, claim.slug, claim.value))) throw new Error("claim taken")
        }
        data.submissions.set(id, submission)
        data.keys.set(key, id)
        for (const claim of input.claims ?? []) {
          data.claims.set(claimKey(input.form_id, claim.slug, claim.value), {
            schema_id: input.form_id, slug: claim.slug, normalized: claim.value, submission_id: id
          })
        }
        portal.submissionTags.set(id, sortedSet(input.tags ?? []))
        if (input.contact_key !== undefined) {
          const contactKey = `${schema.organisation_id}\u0000${input.contact_key}`
          let contactId = portal.contactKeys.get(contactKey)
          if (contactId === undefined) {
            contacts += 1
            contactId = `00000000-0000-4000-d000-${contacts.toString(16).padStart(12, "0")}`
            portal.contactKeys.set(contactKey, contactId)
            portal.contacts.set(contactId, { id: contactId, organisation_id: schema.organisation_id, key: input.contact_key, tags: [] })
            portal.contactCreatedAt.set(contactId, input.created_at)
          }
          portal.submissionContacts.set(id, contactId)
          recomputeContactTags(portal, contactId)
        }
        if (input.event !== undefined) {
          data.outbox.push({
            id: store.nextId("event"), type: "submission.submitted",
            payload: {
              submission_id: id, schema_id: input.form_id, organisation_id: schema.organisation_id, event_id: null,
              values: input.values, submitted_at: new Date(input.created_at).toISOString()
            },
            attempts: 0, last_error: null, available_at: input.created_at, claimed_until: null, created_at: input.created_at,
            delivered_at: input.event === "delivered" ? input.created_at : null, dead_at: input.event === "dead" ? input.created_at : null
          })
        }
        return id
      }),
    addEvent: (event) =>
      Effect.sync(() => {
        const id = store.nextId("event")
        const at = event.at ?? event.created_at
        data.outbox.push({
          id, type: "submission.submitted", payload: event.payload ?? { organisation_id: event.organisation_id },
          attempts: event.state === "dead" ? 10 : 1, last_error: event.state === "dead" ? "failed" : null,
          available_at: event.created_at, claimed_until: null, created_at: event.created_at,
          delivered_at: event.state === "delivered" ? at : null, dead_at: event.state === "dead" ? at : null
        })
        return id
      }),
    claimsOf: (submissionId) => Effect.sync(() => [...data.claims.values()].filter((c) => c.submission_id === submissionId).length),
    exists: (submissionId) => Effect.sync(() => data.submissions.has(submissionId)),
    eventsOf: (submissionId) =>
      Effect.sync(() =>
        data.outbox.filter((r) => r.payload["submission_id"] === submissionId).map((r) => ({ id: r.id, type: r.type, payload: r.payload }))
      ),
    eventPayload: (eventId) => Effect.sync(() => data.outbox.find((r) => r.id === eventId)?.payload ?? {}),
    audit: (organisationId) =>
      Effect.sync(() =>
        data.audit.filter((a) => a.organisation_id === organisationId).map(({ row }) => ({ action: row.action, resource_id: row.resource_id }))
      )
  })
})

/** `InMemorySubmissionsOutFixture.layer`: the fixture over the `InMemoryStore` and `InMemoryPortalStore` in context. */
export const InMemorySubmissionsOutFixture = { layer: Layer.effect(SubmissionsOutFixture, make) } as const

/** The ports and their fixture over one fresh shared store (the one the public-form ports and the handlers write). */
export const inMemorySubmissionsOutPorts = () =>
  Layer.mergeAll(InMemorySubmissionsOut.layer, InMemorySubmissionsOutFixture.layer, InMemoryFileUploads.layer, InMemoryFileStorage.layer).pipe(
    Layer.provideMerge(Layer.mergeAll(InMemoryStore.layer(emptySeed), InMemoryPortalStore.layer({ master_artists: [], engagements: [] })))
  )
