/** The artist portal's model: an engagement, its master artist, its advance sections and the advance schema. */
import { Schema } from "effect"
import { EventRef, FormSchema } from "../forms/FormSchema.js"
import { SectionSchedule } from "./SectionLock.js"

export const Engagement = Schema.Struct({
  id: Schema.String,
  organisation_id: Schema.String,
  event: EventRef,
  master_artist_id: Schema.String
})
export type Engagement = typeof Engagement.Type

export const MasterArtist = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  /** Epoch milliseconds of the soft delete, or null. */
  deleted_at: Schema.NullOr(Schema.Number)
})
export type MasterArtist = typeof MasterArtist.Type

export const AdvanceSectionStatus = Schema.Literals(["pending", "submitted"])
export type AdvanceSectionStatus = typeof AdvanceSectionStatus.Type

/** An engagement-scoped section of the artist's advance. */
export const AdvanceSection = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  position: Schema.Number,
  status: AdvanceSectionStatus,
  /** Epoch milliseconds of the last submit, or null. */
  submitted_at: Schema.NullOr(Schema.Number),
  /** Its deadline and lock as the organiser set them (CONTRACT §21). */
  ...SectionSchedule.fields
})
export type AdvanceSection = typeof AdvanceSection.Type

/** What a portal token resolves to, read in one step. */
export const PortalContext = Schema.Struct({
  engagement: Engagement,
  artist: MasterArtist,
  sections: Schema.Array(AdvanceSection),
  /** The organisation's `artist_advance` schema (at most one; status and public token do not matter), or null. */
  advance_schema: Schema.NullOr(FormSchema)
})
export type PortalContext = typeof PortalContext.Type

export const ArtistAdvanceType = "artist_advance"

/** The idempotency key of an engagement's advance draft (seed §3). */
export const advanceDraftKey = (engagementId: string): string => `artist_advance:${engagementId}`
