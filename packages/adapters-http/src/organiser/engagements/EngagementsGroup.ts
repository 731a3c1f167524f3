/** The `engagements` group of the organiser API: engagements of artists at events, and their portal links. */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup } from "effect/http-api"
import { created, operationDoc, organiserErrors, organiserTag, pagingNote } from "../organiserEndpoints.js"
import { OrganiserAuth } from "../OrganiserAuth.js"
import {
  AdvanceSectionPatchBody,
  EngagementBody,
  EngagementDetailEnvelope,
  EngagementEnvelope,
  EngagementList,
  EngagementPatchBody,
  PortalLinkEnvelope
} from "./wire.js"

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
      success: PortalLinkEnvelope,
      error: organiserErrors.write
    }).annotateMerge(operationDoc("A new portal link, shown this once; the old one stops working", "adminPortalLink"))
  )
  .middleware(OrganiserAuth)
  .annotateMerge(organiserTag)
{}
