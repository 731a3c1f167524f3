/** The state behind the in-memory organiser ports (keys are kept as given: these adapters are for tests and embedding). */
import type { ArtistDetail } from "../../organiser/artists/Artists.js"
import type {
  AdminEvent,
  AdminEventSection,
  AdminTimeSlot,
  ApiKeyRecord,
  AuditEntry,
  AuditRecord,
  Organisation
} from "../../organiser/catalog/CatalogModel.js"
import type { EngagementRecord } from "../../organiser/engagements/EngagementModel.js"
import type { Actor } from "../../shared/Actor.js"
import type { InMemoryData, InMemoryMessageRow, InMemoryOutboxRow } from "../InMemoryStore.js"

/** A row and the organisation it belongs to (a row of another organisation is an unknown one). */
export interface Stored<A> {
  readonly organisation_id: string
  row: A
}

/** The state behind every organiser port. */
export interface OrganiserState {
  readonly organisations: Map<string, Organisation>
  readonly keys: Map<string, { key: string; record: ApiKeyRecord }>
  readonly events: Map<string, Stored<AdminEvent>>
  /** Slots without their derived members: instants are computed on read in the event's zone. */
  readonly slots: Map<string, Stored<Omit<AdminTimeSlot, "event_name" | "holders" | "starts_at" | "ends_at" | "waitlisted">>>
  readonly sections: Map<string, Stored<AdminEventSection>>
  readonly audit: Array<Stored<AuditEntry>>
  readonly artists: Map<string, Stored<ArtistDetail>>
  /** Engagements with their portal token as given (no drafts here: `advance` and `values` stay `{}`). */
  readonly engagements: Map<string, Stored<EngagementRecord & { portal_token: string | null }>>
  /** The outbox the organiser's events go to: the shared store's when there is one. */
  readonly outbox: Array<InMemoryOutboxRow>
  /** The messages the organiser's steps record (a mailed portal link): the shared store's when there is one. */
  readonly messages: Array<InMemoryMessageRow>
}

export type AuditAppend = (actor: Actor, at: number, record: AuditRecord) => void

/** A fresh organiser state; over a shared store's data, its audit log is that store's (one log for every adapter). */
export const makeOrganiserState = (shared?: InMemoryData): OrganiserState => ({
  organisations: new Map(),
  keys: new Map(),
  events: new Map(),
  slots: new Map(),
  sections: new Map(),
  audit: shared?.audit ?? [],
  artists: new Map(),
  engagements: new Map(),
  outbox: shared?.outbox ?? [],
  messages: shared?.messages ?? []
})

/** A source of UUID-shaped ids, unique in this process: `00000000-0000-4000-{kind}-{counter}`. */
export const idSource = (kind: string): () => string => {
  let counter = 0
  return () => {
    counter += 1
    return `00000000-0000-4000-${kind}-${counter.toString(16).padStart(12, "0")}`
  }
}

/** Appends to the state's audit log, each entry with an id of `newId`. */
export const auditTo = (state: OrganiserState, newId: () => string): AuditAppend => (actor, at, record) =>
  state.audit.push({ organisation_id: actor.organisation_id, row: { id: newId(), at, api_key_id: actor.api_key_id, ...record } })

/** The row of `id` when it is the organisation's. */
export const own = <A>(map: ReadonlyMap<string, Stored<A>>, organisationId: string, id: string): A | undefined => {
  const found = map.get(id)
  return found !== undefined && found.organisation_id === organisationId ? found.row : undefined
}
