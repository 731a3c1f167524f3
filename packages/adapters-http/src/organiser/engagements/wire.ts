/** Engagements on the organiser's wire: the engagement with its advance sections, its detail, its body, a portal link. */
import { Schema } from "effect"
import type { AdminEngagement, EngagementDetail } from "@forms/domain"
import { envelopeOf, iso, isoOrNull, listOf } from "../../http/wireShapes.js"
import { WholePosition } from "../../http/wireNumbers.js"

const AdvanceSectionWire = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  position: WholePosition,
  status: Schema.Literals(["pending", "submitted"]),
  submitted_at: Schema.NullOr(Schema.String)
})
export const EngagementWire = Schema.Struct({
  id: Schema.String,
  event_id: Schema.String,
  master_artist_id: Schema.String,
  advance_sections: Schema.Array(AdvanceSectionWire),
  created_at: Schema.String
}).annotate({ identifier: "AdminEngagement" })
export const EngagementList = listOf(EngagementWire, "AdminEngagementList")
export const EngagementEnvelope = envelopeOf(EngagementWire, "AdminEngagementEnvelope")
export const EngagementBody = Schema.Struct({
  event_id: Schema.String,
  master_artist_id: Schema.String,
  advance_sections: Schema.Array(
    Schema.Struct({ name: Schema.String, position: WholePosition }).annotate({ identifier: "AdminAdvanceSectionBody" })
  )
}).annotate({ identifier: "AdminEngagementBody" })
export const toEngagementWire = (e: AdminEngagement): typeof EngagementWire.Type => ({
  id: e.id,
  event_id: e.event_id,
  master_artist_id: e.master_artist_id,
  advance_sections: e.advance_sections.map((s) => ({
    id: s.id,
    name: s.name,
    position: s.position,
    status: s.status,
    submitted_at: isoOrNull(s.submitted_at)
  })),
  created_at: iso(e.created_at)
})
/** The list item plus `advance` (what the portal's answers applied) and `values` (the advance draft's values). */
export const EngagementDetailWire = Schema.Struct({
  ...EngagementWire.fields,
  advance: Schema.Record(Schema.String, Schema.Unknown),
  values: Schema.Record(Schema.String, Schema.Unknown)
}).annotate({ identifier: "AdminEngagementDetail" })
export const EngagementDetailEnvelope = envelopeOf(EngagementDetailWire, "AdminEngagementDetailEnvelope")
export const toEngagementDetailWire = (e: EngagementDetail): typeof EngagementDetailWire.Type => ({
  ...toEngagementWire(e),
  advance: e.advance,
  values: e.values
})
export const PortalLinkEnvelope = envelopeOf(
  Schema.Struct({ portal_url: Schema.String, page_url: Schema.String }).annotate({ identifier: "PortalLink" }),
  "PortalLinkEnvelope"
)
