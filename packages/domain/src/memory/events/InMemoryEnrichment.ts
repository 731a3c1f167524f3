/** In-memory Enrichment and SchemaCatalog: each method one critical section over the shared stores. */
import { Effect, Layer, Option, Result } from "effect"
import { type Contact, Enrichment, type LinkContact } from "../../events/Enrichment.js"
import { SchemaCatalog } from "../../events/SchemaCatalog.js"
import { compareStrings } from "../../shared/compareStrings.js"
import { InMemoryStore } from "../InMemoryStore.js"
import { type InMemoryPortalData, InMemoryPortalStore } from "../portal/InMemoryPortalStore.js"

const sortedSet = (tags: Iterable<string>): ReadonlyArray<string> => [...new Set(tags)].sort(compareStrings)

/** The union of the tags of the contact's submissions, written onto the contact. */
const recomputeContact = (portal: InMemoryPortalData, contactId: string): void => {
  const contact = portal.contacts.get(contactId)
  if (contact === undefined) return
  const tags: Array<string> = []
  for (const [submissionId, linked] of portal.submissionContacts) {
    if (linked === contactId) tags.push(...(portal.submissionTags.get(submissionId) ?? []))
  }
  portal.contacts.set(contactId, { ...contact, tags: sortedSet(tags) })
}

const contactId = (portal: InMemoryPortalData): string => {
  portal.contactSequence += 1
  return `00000000-0000-4000-a000-${portal.contactSequence.toString(16).padStart(12, "0")}`
}

const inMemoryEnrichmentLayer = Layer.effect(
  Enrichment,
  Effect.gen(function*() {
    const store = yield* InMemoryStore
    const portal = (yield* InMemoryPortalStore).data
    const contactOf = (submissionId: string): Contact | undefined => {
      const id = portal.submissionContacts.get(submissionId)
      return id === undefined ? undefined : portal.contacts.get(id)
    }
    const setTags = (submissionId: string, tags: ReadonlyArray<string>): void => {
      portal.submissionTags.set(submissionId, sortedSet(tags))
      const linked = portal.submissionContacts.get(submissionId)
      if (linked !== undefined) recomputeContact(portal, linked)
    }
    const link = (link: LinkContact, now: number): Contact => {
      const key = `${link.organisation_id}\u0000${link.key}`
      let id = portal.contactKeys.get(key)
      if (id === undefined) {
        id = contactId(portal)
        portal.contactKeys.set(key, id)
        portal.contacts.set(id, { id, organisation_id: link.organisation_id, key: link.key, tags: [] })
        portal.contactCreatedAt.set(id, now)
      }
      const previous = portal.submissionContacts.get(link.submission_id)
      portal.submissionContacts.set(link.submission_id, id)
      if (previous !== undefined && previous !== id) recomputeContact(portal, previous)
      recomputeContact(portal, id)
      const fallback: Contact = { id, organisation_id: link.organisation_id, key: link.key, tags: [] }
      return portal.contacts.get(id) ?? fallback
    }
    return Enrichment.of({
      setSubmissionTags: (submissionId, tags) =>
        store.atomically(() => Result.succeed(setTags(submissionId, tags))),
      setSubmissionTagsMany: (items) =>
        store.atomically(() => {
          for (const item of items) setTags(item.submission_id, item.tags)
          return Result.succeed(undefined)
        }),
      linkContact: (request) => store.atomically((now) => Result.succeed(link(request, now))),
      linkContacts: (links) =>
        store.atomically((now) => {
          for (const request of links) link(request, now)
          return Result.succeed(undefined)
        }),
      submissionTags: (submissionId) =>
        store.atomically(() => Result.succeed(portal.submissionTags.get(submissionId) ?? [])),
      contactOfSubmission: (submissionId) =>
        store.atomically(() => Result.succeed(Option.fromUndefinedOr(contactOf(submissionId)))),
      contacts: (organisationId) =>
        store.atomically(() =>
          Result.succeed(
            [...portal.contacts.values()]
              .filter((contact) => contact.organisation_id === organisationId)
              .sort((a, b) => compareStrings(a.key, b.key))
          )
        )
    })
  })
)

const inMemorySchemaCatalogLayer = Layer.effect(
  SchemaCatalog,
  Effect.gen(function*() {
    const store = yield* InMemoryStore
    return SchemaCatalog.of({
      findById: (schemaId) => store.atomically(() => Result.succeed(Option.fromUndefinedOr(store.data.schemas.get(schemaId))))
    })
  })
)

/** The layer of `InMemoryEnrichment`: `InMemoryEnrichment.layer`. */
export const InMemoryEnrichment = { layer: inMemoryEnrichmentLayer } as const

/** The layer of `InMemorySchemaCatalog`: `InMemorySchemaCatalog.layer`. */
export const InMemorySchemaCatalog = { layer: inMemorySchemaCatalogLayer } as const
