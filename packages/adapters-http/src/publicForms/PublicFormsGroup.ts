/** The `publicForms` group: anonymous form filling under a public token (draft, auto-save, submit). */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { alwaysErrors, ApiConflict, ApiNotFound, ApiRateLimited, requestShapeErrors } from "../http/ErrorEnvelope.js"
import { markPublic, operation, optionalBody } from "../http/openApiShape.js"
import {
  CreateDraftBody,
  DraftCreated,
  DraftExisting,
  FormEnvelope,
  SectionsEnvelope,
  SubmissionEnvelope,
  TimeSlotsEnvelope,
  ValuesBody
} from "./wire.js"

// Path parameters are plain strings: a malformed id is an unknown one (404 in its turn).
const token = { token: Schema.String }
const tokenAndSubmission = { token: Schema.String, submissionId: Schema.String }
const writeErrors = [...requestShapeErrors, ApiNotFound, ApiRateLimited, ApiConflict, ...alwaysErrors] as const

export class PublicFormsGroup extends HttpApiGroup.make("publicForms")
  .add(
    HttpApiEndpoint.get("getForm", "/public/forms/:token", {
      params: token,
      success: FormEnvelope,
      error: [ApiNotFound, ...alwaysErrors]
    }).annotateMerge(operation(
      "Read a form",
      "The form with its sections and fields (no option tags, no `maps_to`), its texts in one of its `languages`: the " +
        "query parameter `lang` when it names one (case-insensitive), else the first `Accept-Language` range, by " +
        "q-value, that matches one (equal, else a prefix either way at a `-` boundary), else the default. The answer " +
        "carries `Content-Language` and `Vary: Accept-Language`."
    )),
    HttpApiEndpoint.post("createDraft", "/public/forms/:token/submissions", {
      params: token,
      payload: CreateDraftBody,
      success: [DraftCreated, DraftExisting],
      error: writeErrors
    }).annotateMerge(operation(
      "Create a draft",
      "201 with a new draft; 200 with the draft or submission already stored under this idempotency key " +
        "(any `values` sent are then ignored). Values are checked with the relaxed rules of a save."
    )),
    HttpApiEndpoint.put("saveDraft", "/public/forms/:token/submissions/:submissionId", {
      params: tokenAndSubmission,
      payload: ValuesBody,
      success: SubmissionEnvelope,
      error: writeErrors
    }).annotateMerge(operation(
      "Save a draft",
      "Writes the sent values over the saved ones (relaxed rules) and counts one save. No body saves nothing."
    )).annotateMerge(optionalBody),
    HttpApiEndpoint.post("submit", "/public/forms/:token/submissions/:submissionId/submit", {
      params: tokenAndSubmission,
      payload: ValuesBody,
      success: SubmissionEnvelope,
      error: writeErrors
    }).annotateMerge(operation(
      "Submit a draft",
      "Merges the sent values over the saved ones and checks the result strictly; no body submits the saved values."
    )).annotateMerge(optionalBody),
    HttpApiEndpoint.get("timeSlots", "/public/forms/:token/time-slots", {
      params: token,
      success: TimeSlotsEnvelope,
      error: [ApiNotFound, ...alwaysErrors]
    }).annotateMerge(operation(
      "List time slots",
      "Volunteer forms only: the slots of the form's event and its child events."
    )),
    HttpApiEndpoint.get("sections", "/public/forms/:token/sections", {
      params: token,
      success: SectionsEnvelope,
      error: [ApiNotFound, ...alwaysErrors]
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
