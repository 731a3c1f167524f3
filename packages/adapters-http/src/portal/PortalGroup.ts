/** The `portal` group: an engagement's advance, reached through its secret portal token. */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { alwaysErrors, ApiConflict, ApiGone, ApiNotFound, ApiRateLimited, requestShapeErrors } from "../http/ErrorEnvelope.js"
import { markPublic, operation, optionalBody } from "../http/openApiShape.js"
import { PortalSectionEnvelope, PortalSummaryEnvelope, PortalValuesBody } from "./wire.js"

const portalToken = { token: Schema.String }
const portalSection = { token: Schema.String, sectionId: Schema.String }
const portalAccess = [ApiNotFound, ApiGone, ApiRateLimited] as const

export class PortalGroup extends HttpApiGroup.make("portal")
  .add(
    HttpApiEndpoint.get("summary", "/p/artist/:token", {
      params: portalToken,
      success: PortalSummaryEnvelope,
      error: [...portalAccess, ...alwaysErrors]
    }).annotateMerge(operation("Read an engagement's advance", "The engagement, the artist and every advance section.")),
    HttpApiEndpoint.get("section", "/p/artist/:token/sections/:sectionId", {
      params: portalSection,
      success: PortalSectionEnvelope,
      error: [...portalAccess, ...alwaysErrors]
    }).annotateMerge(operation("Read an advance section", "The section, its fields and its draft values.")),
    HttpApiEndpoint.post("submitSection", "/p/artist/:token/sections/:sectionId", {
      params: portalSection,
      payload: PortalValuesBody,
      success: PortalSectionEnvelope,
      error: [...requestShapeErrors, ...portalAccess, ApiConflict, ...alwaysErrors]
    }).annotateMerge(operation(
      "Submit an advance section",
      "Merges the sent values of the section's fields over the draft, checks them strictly and marks the section " +
        "submitted. A locked section answers 409 SECTION_LOCKED and writes nothing, also when its lock was committed " +
        "while this submit was in flight."
    )).annotateMerge(optionalBody),
    HttpApiEndpoint.put("saveSection", "/p/artist/:token/sections/:sectionId", {
      params: portalSection,
      payload: PortalValuesBody,
      success: PortalSectionEnvelope,
      error: [...requestShapeErrors, ...portalAccess, ApiConflict, ...alwaysErrors]
    }).annotateMerge(operation(
      "Save an advance section's draft",
      "Saves the sent values of the section's fields over the draft with relaxed rules (every rule but `required`), " +
        "so a half-filled section survives a closed tab; the section's status does not change. A locked section " +
        "answers 409 SECTION_LOCKED and saves nothing."
    )).annotateMerge(optionalBody)
  )
  .pipe(markPublic)
  .annotateMerge(OpenApi.annotations({
    title: "Artist portal",
    description: "An engagement's advance, reached through its secret portal token: the summary, a section with " +
      "its fields and draft values, a section's draft save and a section submit. Checks run in the order token (404 PORTAL_NOT_FOUND), " +
      "artist (410 ARTIST_GONE), rate limit (429), section (404 SECTION_NOT_FOUND), lock (409 SECTION_LOCKED), " +
      "values (422). Every answer " +
      "from the rate-limit step on carries `RateLimit-Policy` and `RateLimit` (policy `portal`); a 429 also `Retry-After`."
  }))
{}
