/** The HTTP API definition (CONTRACT §3, §5, §9), shared by the server, the typed client and OpenAPI. */
import { Schema } from "effect"
import { HttpApi, HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { AdminGroup } from "./admin/AdminGroup.js"
import { SubmissionsOutGroup } from "./admin/SubmissionsOutGroup.js"
import { WebhooksGroup } from "./admin/WebhooksGroup.js"
import { AdminFormsGroup } from "./admin/FormsGroup.js"
import { apiLicense, markPublic, operation, optionalBody, withDocumentRoutes } from "./openApiShape.js"
import {
  ApiConflict,
  ApiGone,
  ApiInternal,
  ApiNotFound,
  ApiRateLimited,
  ApiUnavailable,
  requestShapeErrors
} from "./wire/ErrorEnvelope.js"
import { FormEnvelope } from "./wire/Form.js"
import { PortalSectionEnvelope, PortalSummaryEnvelope, PortalValuesBody } from "./wire/Portal.js"
import { PagesGroup } from "./pages/PagesGroup.js"
import { HealthEnvelope, SectionsEnvelope, TimeSlotsEnvelope } from "./wire/Registration.js"
import {
  CreateDraftBody,
  DraftCreated,
  DraftExisting,
  SubmissionEnvelope,
  ValuesBody
} from "./wire/Submission.js"

// Path parameters are plain strings: a malformed id is an unknown one (404 in its turn).
const token = { token: Schema.String }
const tokenAndSubmission = { token: Schema.String, submissionId: Schema.String }
const always = [ApiInternal, ApiUnavailable] as const

export class PublicFormsGroup extends HttpApiGroup.make("publicForms")
  .add(
    HttpApiEndpoint.get("getForm", "/public/forms/:token", {
      params: token,
      success: FormEnvelope,
      error: [ApiNotFound, ...always]
    }).annotateMerge(operation("Read a form", "The form with its sections and fields (no option tags, no `maps_to`).")),
    HttpApiEndpoint.post("createDraft", "/public/forms/:token/submissions", {
      params: token,
      payload: CreateDraftBody,
      success: [DraftCreated, DraftExisting],
      error: [...requestShapeErrors, ApiNotFound, ApiRateLimited, ApiConflict, ...always]
    }).annotateMerge(operation(
      "Create a draft",
      "201 with a new draft; 200 with the draft or submission already stored under this idempotency key " +
        "(any `values` sent are then ignored). Values are checked with the relaxed rules of a save."
    )),
    HttpApiEndpoint.put("saveDraft", "/public/forms/:token/submissions/:submissionId", {
      params: tokenAndSubmission,
      payload: ValuesBody,
      success: SubmissionEnvelope,
      error: [...requestShapeErrors, ApiNotFound, ApiRateLimited, ApiConflict, ...always]
    }).annotateMerge(operation(
      "Save a draft",
      "Writes the sent values over the saved ones (relaxed rules) and counts one save. No body saves nothing."
    )).annotateMerge(optionalBody),
    HttpApiEndpoint.post("submit", "/public/forms/:token/submissions/:submissionId/submit", {
      params: tokenAndSubmission,
      payload: ValuesBody,
      success: SubmissionEnvelope,
      error: [...requestShapeErrors, ApiNotFound, ApiRateLimited, ApiConflict, ...always]
    }).annotateMerge(operation(
      "Submit a draft",
      "Merges the sent values over the saved ones and checks the result strictly; no body submits the saved values."
    )).annotateMerge(optionalBody),
    HttpApiEndpoint.get("timeSlots", "/public/forms/:token/time-slots", {
      params: token,
      success: TimeSlotsEnvelope,
      error: [ApiNotFound, ...always]
    }).annotateMerge(operation(
      "List time slots",
      "Volunteer forms only: the slots of the form's event and its child events."
    )),
    HttpApiEndpoint.get("sections", "/public/forms/:token/sections", {
      params: token,
      success: SectionsEnvelope,
      error: [ApiNotFound, ...always]
    }).annotateMerge(operation("List registration sections"))
  )
  .pipe(markPublic)
  .annotateMerge(OpenApi.annotations({
    title: "Public forms",
    description: "Anonymous form filling under a public token: draft, auto-save, submit. " +
      "Create, save (policy `write`) and submit (policy `submit`) answers carry `RateLimit-Policy` and " +
      "`RateLimit` headers, and a 429 also `Retry-After`; clients of exempt networks get none."
  }))
{}

const portalToken = { token: Schema.String }
const portalSection = { token: Schema.String, sectionId: Schema.String }
const portalAccess = [ApiNotFound, ApiGone, ApiRateLimited] as const

export class PortalGroup extends HttpApiGroup.make("portal")
  .add(
    HttpApiEndpoint.get("summary", "/p/artist/:token", {
      params: portalToken,
      success: PortalSummaryEnvelope,
      error: [...portalAccess, ...always]
    }).annotateMerge(operation("Read an engagement's advance", "The engagement, the artist and every advance section.")),
    HttpApiEndpoint.get("section", "/p/artist/:token/sections/:sectionId", {
      params: portalSection,
      success: PortalSectionEnvelope,
      error: [...portalAccess, ...always]
    }).annotateMerge(operation("Read an advance section", "The section, its fields and its draft values.")),
    HttpApiEndpoint.post("submitSection", "/p/artist/:token/sections/:sectionId", {
      params: portalSection,
      payload: PortalValuesBody,
      success: PortalSectionEnvelope,
      error: [...requestShapeErrors, ...portalAccess, ...always]
    }).annotateMerge(operation(
      "Submit an advance section",
      "Merges the sent values of the section's fields over the draft, checks them strictly and marks the section submitted."
    )).annotateMerge(optionalBody)
  )
  .pipe(markPublic)
  .annotateMerge(OpenApi.annotations({
    title: "Artist portal",
    description: "An engagement's advance, reached through its secret portal token: the summary, a section with " +
      "its fields and draft values, and a section submit. Checks run in the order token (404 PORTAL_NOT_FOUND), " +
      "artist (410 ARTIST_GONE), rate limit (429), section (404 SECTION_NOT_FOUND), values (422). Every answer " +
      "from the rate-limit step on carries `RateLimit-Policy` and `RateLimit` (policy `portal`); a 429 also `Retry-After`."
  }))
{}

export class SystemGroup extends HttpApiGroup.make("system")
  .add(
    HttpApiEndpoint.get("live", "/health/live", { success: HealthEnvelope, error: ApiInternal })
      .annotateMerge(operation("Liveness", "The process is up.")),
    HttpApiEndpoint.get("ready", "/health/ready", { success: HealthEnvelope, error: [ApiUnavailable, ApiInternal] })
      .annotateMerge(operation("Readiness", "The database answers; 503 UNAVAILABLE otherwise."))
  )
  .pipe(markPublic)
  .annotateMerge(OpenApi.annotations({ title: "System", description: "Liveness and readiness." }))
{}

export class Api extends HttpApi.make("forms")
  .add(PublicFormsGroup)
  .add(PortalGroup)
  .add(SystemGroup)
  .add(AdminGroup)
  .add(SubmissionsOutGroup)
  .add(WebhooksGroup)
  .add(AdminFormsGroup)
  .add(markPublic(PagesGroup))
  .annotateMerge(OpenApi.annotations({
    title: "Forms and artist portal",
    version: "0.1.0",
    license: apiLicense,
    transform: withDocumentRoutes,
    description: "Every JSON answer is `{ data }` on success and `{ error: { code, message, fields? } }` otherwise. " +
      "Every response carries `x-request-id`."
  }))
{}
