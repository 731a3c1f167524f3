/** The portal and enrichment state behind the in-memory adapters, beside (and stepped with) the shared InMemoryStore. */
import { Context, Effect, Layer } from "effect"
import type { Contact } from "../../events/Enrichment.js"
import type { AdvanceSection } from "../../portal/Engagement.js"
import { applySchedule, noSchedule, type SchedulePatch } from "../../portal/SectionLock.js"
import type { ApplySource } from "../../portal/ValueTargets.js"
import type { PortalSeed } from "./portalFixture.js"

export interface InMemoryArtist {
  readonly id: string
  readonly organisation_id: string
  readonly name: string
  deleted_at: number | null
  profile: Readonly<Record<string, unknown>>
}

export interface InMemoryEngagement {
  readonly id: string
  readonly organisation_id: string
  readonly event_id: string
  readonly master_artist_id: string
  /** Plaintext: the in-memory store needs no hashing (the SQL one keeps only SHA-256 hashes). */
  portal_token: string | null
  advance: Readonly<Record<string, unknown>>
  /** The advance draft (and its version) whose values were last applied to `advance` with a source. */
  advance_source: ApplySource | null
}

export interface InMemoryAdvanceSection extends AdvanceSection {
  readonly engagement_id: string
}

/** Mutable on purpose: only the adapters' critical sections (and tests, between effects) touch it. */
export interface InMemoryPortalData {
  readonly artists: Map<string, InMemoryArtist>
  readonly engagements: Map<string, InMemoryEngagement>
  readonly sections: Map<string, InMemoryAdvanceSection>
  /** submission id → its tags (sorted set). */
  readonly submissionTags: Map<string, ReadonlyArray<string>>
  readonly contacts: Map<string, Contact>
  /** `${organisation_id}\u0000${key}` → contact id. */
  readonly contactKeys: Map<string, string>
  /** submission id → contact id. */
  readonly submissionContacts: Map<string, string>
  /** contact id → epoch ms of its creation (the contacts of "Submissions out" are listed newest first). */
  readonly contactCreatedAt: Map<string, number>
  contactSequence: number
}

export const plainMap = (): Record<string, unknown> => Object.create(null) as Record<string, unknown>

const epochMs = (iso: string | null): number | null => (iso === null ? null : Date.parse(iso))

export const makeInMemoryPortalData = (seed: PortalSeed): InMemoryPortalData => ({
  artists: new Map(seed.master_artists.map((artist) => [artist.id, {
    id: artist.id,
    organisation_id: artist.organisation_id,
    name: artist.name,
    deleted_at: epochMs(artist.deleted_at),
    profile: plainMap()
  }])),
  engagements: new Map(seed.engagements.map((engagement) => [engagement.id, {
    id: engagement.id,
    organisation_id: engagement.organisation_id,
    event_id: engagement.event_id,
    master_artist_id: engagement.master_artist_id,
    portal_token: engagement.portal_token,
    advance: plainMap(),
    advance_source: null
  }])),
  sections: new Map(seed.engagements.flatMap((engagement) =>
    engagement.advance_sections.map((section) => [section.id, {
      id: section.id,
      engagement_id: engagement.id,
      name: section.name,
      position: section.position,
      status: "pending" as const,
      submitted_at: null,
      ...noSchedule
    }] as const)
  )),
  submissionTags: new Map(),
  contacts: new Map(),
  contactKeys: new Map(),
  submissionContacts: new Map(),
  contactCreatedAt: new Map(),
  contactSequence: 0
})

export interface InMemoryPortalStoreShape {
  readonly data: InMemoryPortalData
  /** Soft-deletes (or restores, with null) a master artist. */
  readonly setArtistDeleted: (artistId: string, deletedAt: number | null) => Effect.Effect<void>
  /** Issues a new portal token for an engagement (the old one stops working). */
  readonly setPortalToken: (engagementId: string, token: string | null) => Effect.Effect<void>
  /** Sets members of a section's deadline and lock (what an organiser's PATCH sets elsewhere). */
  readonly setSectionSchedule: (sectionId: string, patch: SchedulePatch) => Effect.Effect<void>
}

/** The portal state of one in-memory layer: tests read and change it through this service. */
export class InMemoryPortalStore extends Context.Service<InMemoryPortalStore, InMemoryPortalStoreShape>()(
  "@forms/domain/memory/InMemoryPortalStore"
) {
  static readonly layer = (seed: PortalSeed) =>
    Layer.sync(InMemoryPortalStore, () => {
      const data = makeInMemoryPortalData(seed)
      return InMemoryPortalStore.of({
        data,
        setArtistDeleted: (artistId, deletedAt) =>
          Effect.sync(() => {
            const artist = data.artists.get(artistId)
            if (artist !== undefined) artist.deleted_at = deletedAt
          }),
        setPortalToken: (engagementId, token) =>
          Effect.sync(() => {
            const engagement = data.engagements.get(engagementId)
            if (engagement !== undefined) engagement.portal_token = token
          }),
        setSectionSchedule: (sectionId, patch) =>
          Effect.sync(() => {
            const section = data.sections.get(sectionId)
            if (section !== undefined) data.sections.set(sectionId, { ...section, ...applySchedule(section, patch) })
          })
      })
    })
}
