/**
 * The `engagements` group of the organiser API: engagements of artists at events, and their portal links. The
 * group's wire shapes are here, beside its endpoints: the engagement with its advance sections, its detail, its
 * body, a portal link, derived from the domain's records.
 */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup } from "effect/http-api"
import { AdminAdvanceSection, AdminEngagement, EngagementDetail } from "@forms/domain"
import { envelopeOf, iso, isoOrNull, listOf } from "../../http/wireShapes.js"
import { WholePosition } from "../../http/wireNumbers.js"
import { created, operationDoc, organiserErrors, organiserTag, pagingNote } from "../organiserEndpoints.js"
import { OrganiserAuth } from "../OrganiserAuth.js"

// Wire shapes

/** The domain's advance section: a whole position in the API's range, its instants in ISO 8601. */
const AdvanceSectionWire = AdminAdvanceSection.mapFields((f) => ({
  ...f,
  position: WholePosition,
  submitted_at: Schema.NullOr(Schema.String),
  due_at: Schema.NullOr(Schema.String),
  locks_at: Schema.NullOr(Schema.String),
  lock_setting: f.lock_setting.annotate({
    description: "`locked` as set: true (locked), false (kept open whatever `locks_at` says) or null (by `locks_at`)."
  }),
  locked: f.locked.annotate({ description: "Locked now: `lock_setting` true, or `lock_setting` null and `locks_at` passed." }),
  overdue: f.overdue.annotate({ description: "Pending, with `due_at` passed." })
})).annotate({ identifier: "AdminAdvanceSection" })
/** The domain's engagement, its instants in ISO 8601. */
export const EngagementWire = AdminEngagement.mapFields((f) => ({
  ...f,
  advance_sections: Schema.Array(AdvanceSectionWire),
  created_at: Schema.String
})).annotate({ identifier: "AdminEngagement" })
export const EngagementList = listOf(EngagementWire, "AdminEngagementList")
export const EngagementEnvelope = envelopeOf(EngagementWire, "AdminEngagementEnvelope")
const instantOrNull = Schema.NullOr(Schema.String).annotate({ description: "An RFC 3339 date-time with a zone, or null." })
/** The members of a section's deadline and lock, as a body sets them. */
const scheduleBody = {
  due_at: Schema.optionalKey(instantOrNull),
  locks_at: Schema.optionalKey(instantOrNull),
  locked: Schema.optionalKey(Schema.NullOr(Schema.Boolean))
}
export const EngagementBody = Schema.Struct({
  event_id: Schema.String,
  master_artist_id: Schema.String,
  contact_email: Schema.optionalKey(Schema.NullOr(Schema.String)),
  advance_sections: Schema.Array(
    Schema.Struct({ name: Schema.String, position: WholePosition, ...scheduleBody })
      .annotate({ identifier: "AdminAdvanceSectionBody" })
  )
}).annotate({ identifier: "AdminEngagementBody" })
export const EngagementPatchBody = Schema.Struct({ contact_email: Schema.optionalKey(Schema.NullOr(Schema.String)) })
  .annotate({ identifier: "AdminEngagementPatch" })
/** `POST …/portal-link`: optionally where to mail the new link. */
export const PortalLinkBody = Schema.Struct({ send_to: Schema.optionalKey(Schema.NullOr(Schema.String)) })
  .annotate({ identifier: "AdminPortalLinkRequest" })
export const AdvanceSectionPatchBody = Schema.Struct(scheduleBody).annotate({ identifier: "AdminAdvanceSectionPatch" })
export const toEngagementWire = (e: AdminEngagement): typeof EngagementWire.Type => ({
  id: e.id,
  event_id: e.event_id,
  master_artist_id: e.master_artist_id,
  contact_email: e.contact_email,
  advance_sections: e.advance_sections.map((s) => ({
    id: s.id,
    name: s.name,
    position: s.position,
    status: s.status,
    submitted_at: isoOrNull(s.submitted_at),
    due_at: isoOrNull(s.due_at),
    locks_at: isoOrNull(s.locks_at),
    locked: s.locked,
    lock_setting: s.lock_setting,
    overdue: s.overdue
  })),
  created_at: iso(e.created_at)
})
/** The list item plus `advance` (what the portal's answers applied) and `values` (the advance draft's values). */
export const EngagementDetailWire = Schema.Struct({
  ...EngagementWire.fields,
  advance: EngagementDetail.fields.advance,
  values: EngagementDetail.fields.values
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

// Endpoints

const engagementId = { engagementId: Schema.String }
const engagementSection = { engagementId: Schema.String, sectionId: Schema.String }

export class EngagementsGroup extends HttpApiGroup.make("engagements")
  .add(
    HttpApiEndpoint.get("listEngagements", "/admin/engagements", { success: EngagementList, error: organiserErrors.listed })
      .annotateMerge(operationDoc(
        "List engagements with their advance sections, newest first." + pagingNote + " `overdue=true` lists only " +
          "the engagements with an overdue section (pending, `due_at` passed); another value is 400 INVALID_QUERY.",
        "adminListEngagements"
      )),
    HttpApiEndpoint.post("createEngagement", "/admin/engagements", {
      payload: EngagementBody,
      success: created(EngagementEnvelope),
      error: organiserErrors.write
    }).annotateMerge(operationDoc(
      "Create an engagement of an artist at an event, with its advance sections (no portal token yet: " +
        "POST …/portal-link issues one). 422 `in` for an event or artist not of the organisation, or a " +
        "soft-deleted artist; at most 100 advance sections, each with optional `due_at`, `locks_at` and `locked`; " +
        "`contact_email` (optional, null to leave none) 422 `email` when it is not an address.",
      "adminCreateEngagement"
    )),
    HttpApiEndpoint.get("getEngagement", "/admin/engagements/:engagementId", {
      params: engagementId,
      success: EngagementDetailEnvelope,
      error: organiserErrors.read
    }).annotateMerge(operationDoc("Get an engagement with `advance` and the advance draft's `values`", "adminGetEngagement")),
    HttpApiEndpoint.patch("updateEngagement", "/admin/engagements/:engagementId", {
      params: engagementId,
      payload: EngagementPatchBody,
      success: EngagementEnvelope,
      error: organiserErrors.write
    }).annotateMerge(operationDoc(
      "Change an engagement's contact",
      "adminUpdateEngagement",
      "`contact_email`: the artist's manager (null clears it; 422 `email` when it is not an address). Audited " +
        "`engagement.updated`."
    )),
    HttpApiEndpoint.patch("updateAdvanceSection", "/admin/engagements/:engagementId/sections/:sectionId", {
      params: engagementSection,
      payload: AdvanceSectionPatchBody,
      success: EngagementEnvelope,
      error: organiserErrors.write
    }).annotateMerge(operationDoc(
      "Set an advance section's due date and lock",
      "adminUpdateAdvanceSection",
      "`due_at`, `locks_at` (RFC 3339 date-times or null) and `locked` (true, false or null). A section is locked " +
        "when `locked` is true, or `locked` is null and `locks_at` has passed; `locked: false` keeps it open. " +
        "404 ENGAGEMENT_NOT_FOUND, then SECTION_NOT_FOUND. Audited `engagement_section.updated`; a change that " +
        "locks the section records `section.locked`, one that opens it `section.reopened`. Once this answers, no " +
        "portal submit to the section lands after it."
    )),
    HttpApiEndpoint.post("portalLink", "/admin/engagements/:engagementId/portal-link", {
      params: engagementId,
      payload: PortalLinkBody,
      success: PortalLinkEnvelope,
      error: organiserErrors.write
    }).annotateMerge(operationDoc(
      "A new portal link, shown this once; the old one stops working",
      "adminPortalLink",
      "The body is optional. `send_to` (an address; 422 `email` when it is not one) also mails the new link's " +
        "`page_url` there (a `portal_link` message, held while no mail server is configured)."
    ))
  )
  .middleware(OrganiserAuth)
  .annotateMerge(organiserTag)
{}
