/** Engagements as the organiser sees them (CONTRACT §12): an artist at an event, with its advance sections. */
import { Schema } from "effect"
import { AdvanceSection } from "../../portal/Engagement.js"
import type { CreatedKey } from "../../shared/paging.js"

/** An advance section as the organiser sees it: the portal's record (portal/Engagement). */
export const AdminAdvanceSection = AdvanceSection
export type AdminAdvanceSection = AdvanceSection

export const AdminEngagement = Schema.Struct({
  id: Schema.String,
  event_id: Schema.String,
  master_artist_id: Schema.String,
  advance_sections: Schema.Array(AdminAdvanceSection),
  created_at: Schema.Number
})
export type AdminEngagement = typeof AdminEngagement.Type

/** An engagement with what artists sent: `advance` (applied by §5) and the advance draft's `values`. */
export const EngagementDetail = Schema.Struct({
  ...AdminEngagement.fields,
  advance: Schema.Record(Schema.String, Schema.Unknown),
  values: Schema.Record(Schema.String, Schema.Unknown)
})
export type EngagementDetail = typeof EngagementDetail.Type

/** A new engagement after validation: its references are checked by the port (one transaction). */
export const EngagementInput = Schema.Struct({
  event_id: Schema.String,
  master_artist_id: Schema.String,
  advance_sections: Schema.Array(Schema.Struct({ name: Schema.String, position: Schema.Number }))
})
export type EngagementInput = typeof EngagementInput.Type

export const engagementKeyOf = (e: AdminEngagement): CreatedKey => ({ created_at: e.created_at, id: e.id })
