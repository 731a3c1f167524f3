/** The `forms` group of the organiser API: authoring forms (definitions, revisions in `ETag`, `If-Match`), behind the bearer key. */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import {
  AdminFormEnvelope,
  AdminFormList,
  FormDefinitionBody,
  FormPatchBody,
  TokenRotationEnvelope
} from "./wire.js"
import {
  ApiConflict,
  ApiInternal,
  ApiMalformedJson,
  ApiNotFound,
  ApiPreconditionFailed,
  ApiPreconditionRequired,
  ApiRateLimited,
  ApiUnavailable,
  requestShapeErrors
} from "../../http/ErrorEnvelope.js"
import { OrganiserAuth } from "../OrganiserAuth.js"

const formId = { formId: Schema.String }
const always = [ApiRateLimited, ApiInternal, ApiUnavailable] as const
const read = [ApiNotFound, ...always] as const
const write = [...requestShapeErrors, ApiNotFound, ApiConflict, ...always] as const
const doc = (summary: string, identifier: string, description?: string) =>
  OpenApi.annotations(description === undefined ? { summary, identifier } : { summary, identifier, description })
const etagNote = " The answer carries `ETag: \"<revision>\"`."

export class FormsGroup extends HttpApiGroup.make("forms")
  .add(
    HttpApiEndpoint.get("listForms", "/admin/forms", { success: AdminFormList, error: [ApiMalformedJson, ...read] })
      .annotateMerge(doc("List forms, newest first, with their submissions counted", "adminListForms",
        "Query: `limit` 1–200 (default 50), `cursor` (the `next_cursor` of the page before).")),
    HttpApiEndpoint.post("createForm", "/admin/forms", {
      payload: FormDefinitionBody,
      success: AdminFormEnvelope.pipe(HttpApiSchema.status(201)),
      error: write
    }).annotateMerge(doc("Create a form (revision 1, a generated public token)", "adminCreateForm",
      "A definition is checked as a fixture is: every problem at once, 422 keyed by dotted path." + etagNote)),
    HttpApiEndpoint.get("getForm", "/admin/forms/:formId", { params: formId, success: AdminFormEnvelope, error: read })
      .annotateMerge(doc("Get a form", "adminGetForm", "The definition with every default, and its read-only members." + etagNote)),
    HttpApiEndpoint.put("replaceForm", "/admin/forms/:formId", {
      params: formId,
      payload: FormDefinitionBody,
      success: AdminFormEnvelope,
      error: [...write, ApiPreconditionFailed, ApiPreconditionRequired]
    }).annotateMerge(doc("Replace a form's definition under If-Match", "adminReplaceForm",
      "Needs `If-Match: \"<revision>\"` (or `*`): 428 without it, 412 REVISION_CONFLICT when stale. Parts keep " +
        "their identity by id; read-only members sent back are ignored. Applies at once to every save and submit." +
        etagNote)),
    HttpApiEndpoint.patch("patchForm", "/admin/forms/:formId", {
      params: formId,
      payload: FormPatchBody,
      success: AdminFormEnvelope,
      error: [...write, ApiPreconditionFailed]
    }).annotateMerge(doc("Change a form's name, status, dates or tags", "adminPatchForm",
      "`If-Match` optional; when sent, 412 when stale." + etagNote)),
    HttpApiEndpoint.delete("deleteForm", "/admin/forms/:formId", { params: formId, success: HttpApiSchema.NoContent, error: write })
      .annotateMerge(doc("Delete a form (409 IN_USE while it has submissions: archive it instead)", "adminDeleteForm")),
    HttpApiEndpoint.post("rotateFormToken", "/admin/forms/:formId/rotate-token", {
      params: formId,
      success: TokenRotationEnvelope,
      error: write
    }).annotateMerge(doc("Give a form a new public token", "adminRotateFormToken",
      "The previous token keeps working for the grace window (FORM_TOKEN_GRACE_SECONDS); the revision does not move."))
  )
  .middleware(OrganiserAuth)
  .annotateMerge(OpenApi.annotations({
    title: "Organiser: forms",
    description: "Authoring forms: definitions, integer revisions carried in `ETag`, `If-Match` on PUT (and PATCH). " +
      "Checks run in the order key (401) → body (415, 413, 400) → query (400) → the `admin` limit (429) → ids (404) → " +
      "preconditions (428, 412) → body members (422) → conflicts (409)."
  }))
{}
