/** Engagements as the organiser sees them (CONTRACT §12, §21): an artist at an event, with its advance sections. */
import { Schema } from "effect"
import { AdvanceSection } from "../../portal/Engagement.js"
import { isLockedAt, isOverdueAt, SectionSchedule } from "../../portal/SectionLock.js"
import type { CreatedKey } from "../../shared/paging.js"

/** An advance section as stored: its status and its deadline and lock as set (`lock_setting`). */
export const AdvanceSectionRecord = AdvanceSection
export type AdvanceSectionRecord = typeof AdvanceSectionRecord.Type

/** An advance section as shown at an instant: `locked` and `overdue` computed for it (CONTRACT §21). */
export const AdminAdvanceSection = Schema.Struct({
  ...AdvanceSectionRecord.fields,
  locked: Schema.Boolean,
  overdue: Schema.Boolean
})
export type AdminAdvanceSection = typeof AdminAdvanceSection.Type

/** An engagement as the port stores it. */
export const EngagementRecord = Schema.Struct({
  id: Schema.String,
  event_id: Schema.String,
  master_artist_id: Schema.String,
  /** The artist's manager, or null. */
  contact_email: Schema.NullOr(Schema.String),
  advance_sections: Schema.Array(AdvanceSectionRecord),
  created_at: Schema.Number
})
export type EngagementRecord = typeof EngagementRecord.Type

/** An engagement as shown at an instant (its sections' `locked` and `overdue` computed). */
export const AdminEngagement = EngagementRecord.mapFields((f) => ({ ...f, advance_sections: Schema.Array(AdminAdvanceSection) }))
export type AdminEngagement = typeof AdminEngagement.Type

const detailFields = {
  advance: Schema.Record(Schema.String, Schema.Unknown),
  values: Schema.Record(Schema.String, Schema.Unknown)
}

/** An engagement with what artists sent: `advance` (applied by §5) and the advance draft's `values`. */
export const EngagementDetailRecord = Schema.Struct({ ...EngagementRecord.fields, ...detailFields })
export type EngagementDetailRecord = typeof EngagementDetailRecord.Type

export const EngagementDetail = Schema.Struct({ ...AdminEngagement.fields, ...detailFields })
export type EngagementDetail = typeof EngagementDetail.Type

/** A new advance section after validation: its deadline and lock as set (null when absent). */
export const AdvanceSectionInput = Schema.Struct({
  name: Schema.String,
  position: Schema.Number,
  ...SectionSchedule.fields
})
export type AdvanceSectionInput = typeof AdvanceSectionInput.Type

/** A new engagement after validation: its references are checked by the port (one transaction). */
export const EngagementInput = Schema.Struct({
  event_id: Schema.String,
  master_artist_id: Schema.String,
  contact_email: Schema.NullOr(Schema.String),
  advance_sections: Schema.Array(AdvanceSectionInput)
})
export type EngagementInput = typeof EngagementInput.Type

/** A change of an engagement (absent members kept). */
export const EngagementPatch = Schema.Struct({ contact_email: Schema.optionalKey(Schema.NullOr(Schema.String)) })
export type EngagementPatch = typeof EngagementPatch.Type

/** Filters of the engagements' list: `overdue_at` (epoch ms) keeps those with a section overdue at that instant. */
export interface EngagementFilter {
  readonly overdue_at?: number
}

export const engagementKeyOf = (e: { readonly created_at: number; readonly id: string }): CreatedKey => ({
  created_at: e.created_at,
  id: e.id
})

/** A stored section as shown at `now`. */
export const sectionAt = (section: AdvanceSectionRecord, now: number): AdminAdvanceSection => ({
  ...section,
  locked: isLockedAt(section, now),
  overdue: isOverdueAt(section.status, section, now)
})

/** A stored engagement (or its detail) as shown at `now`. */
export const engagementAt = <E extends EngagementRecord>(
  engagement: E,
  now: number
): Omit<E, "advance_sections"> & { readonly advance_sections: ReadonlyArray<AdminAdvanceSection> } => ({
  ...engagement,
  advance_sections: engagement.advance_sections.map((s) => sectionAt(s, now))
})
