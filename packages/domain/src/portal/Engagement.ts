/** The artist portal's model: an engagement, its master artist, its advance sections and the advance schema. */
import type { EventRef, FormSchema } from "../forms/FormSchema.js"

export interface Engagement {
  readonly id: string
  readonly organisation_id: string
  readonly event: EventRef
  readonly master_artist_id: string
}

export interface MasterArtist {
  readonly id: string
  readonly name: string
  /** Epoch milliseconds of the soft delete, or null. */
  readonly deleted_at: number | null
}

export type AdvanceSectionStatus = "pending" | "submitted"

/** An engagement-scoped section of the artist's advance. */
export interface AdvanceSection {
  readonly id: string
  readonly name: string
  readonly position: number
  readonly status: AdvanceSectionStatus
  /** Epoch milliseconds of the last submit, or null. */
  readonly submitted_at: number | null
}

/** What a portal token resolves to, read in one step. */
export interface PortalContext {
  readonly engagement: Engagement
  readonly artist: MasterArtist
  readonly sections: ReadonlyArray<AdvanceSection>
  /** The organisation's `artist_advance` schema (at most one; status and public token do not matter), or null. */
  readonly advance_schema: FormSchema | null
}

export const ArtistAdvanceType = "artist_advance"

/** The idempotency key of an engagement's advance draft (seed §3). */
export const advanceDraftKey = (engagementId: string): string => `artist_advance:${engagementId}`
