/** The `engagements` group of the organiser API: engagements of artists at events, and their portal links. */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup } from "effect/http-api"
import { created, operationDoc, organiserErrors, organiserTag, pagingNote } from "../organiserEndpoints.js"
import { OrganiserAuth } from "../OrganiserAuth.js"
import { EngagementBody, EngagementDetailEnvelope, EngagementEnvelope, EngagementList, PortalLinkEnvelope } from "./wire.js"

const engagementId = { engagementId: Schema.String }

export class EngagementsGroup extends HttpApiGroup.make("engagements")
  .add(
    HttpApiEndpoint.get("listEngagements", "/admin/engagements", { success: EngagementList, error: organiserErrors.listed })
      .annotateMerge(operationDoc("List engagements with their advance sections, newest first." + pagingNote, "adminListEngagements")),
    HttpApiEndpoint.post("createEngagement", "/admin/engagements", {
      payload: EngagementBody,
      success: created(EngagementEnvelope),
      error: organiserErrors.write
    }).annotateMerge(operationDoc(
      "Create an engagement of an artist at an event, with its advance sections (no portal token yet: " +
        "POST …/portal-link issues one). 422 `in` for an event or artist not of the organisation, or a " +
        "soft-deleted artist; at most 100 advance sections.",
      "adminCreateEngagement"
    )),
    HttpApiEndpoint.get("getEngagement", "/admin/engagements/:engagementId", {
      params: engagementId,
      success: EngagementDetailEnvelope,
      error: organiserErrors.read
    }).annotateMerge(operationDoc("Get an engagement with `advance` and the advance draft's `values`", "adminGetEngagement")),
    HttpApiEndpoint.post("portalLink", "/admin/engagements/:engagementId/portal-link", {
      params: engagementId,
      success: PortalLinkEnvelope,
      error: organiserErrors.write
    }).annotateMerge(operationDoc("A new portal link, shown this once; the old one stops working", "adminPortalLink"))
  )
  .middleware(OrganiserAuth)
  .annotateMerge(organiserTag)
{}
