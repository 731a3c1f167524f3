/** The `submissionsOut` group of the organiser API: submissions listed, read, exported and erased; contacts; the outbox. */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { ApiConflict, ApiInternal, ApiMalformedJson, ApiNotFound, ApiRateLimited, ApiUnavailable } from "../http/ErrorEnvelope.js"
import {
  AdminSubmissionEnvelope,
  AdminSubmissionList,
  ContactList,
  OutboxEntryEnvelope,
  OutboxEntryList
} from "./wire.js"
import { OrganiserAuth } from "../organiser/OrganiserAuth.js"
import { ManageLinkCreated } from "../shifts/manageWire.js"

const formId = { formId: Schema.String }
const submissionId = { submissionId: Schema.String }
const contactId = { contactId: Schema.String }
const eventId = { eventId: Schema.String }
const always = [ApiRateLimited, ApiInternal, ApiUnavailable] as const
const read = [ApiNotFound, ...always] as const
const queried = [ApiMalformedJson, ApiNotFound, ...always] as const
const write = [ApiMalformedJson, ApiNotFound, ApiConflict, ...always] as const

const doc = (summary: string, identifier: string, description?: string) =>
  OpenApi.annotations({ summary, identifier, ...(description === undefined ? {} : { description }) })
const paging = " `limit` 1–200 (default 50), `cursor` (the `next_cursor` of the page before); a malformed one is 400 INVALID_QUERY."

const Csv = Schema.String.annotate({
  description: "`format=csv` (the default): RFC 4180, CRLF line ends: `submission_id,status,created_at,updated_at," +
    "submitted_at`, one column per field of the current revision (slug), then `language` (the submission's); arrays " +
    "joined with `; `; a cell starting " +
    "with `=`, `+`, `-`, `@`, tab or CR is prefixed with `'`"
}).pipe(HttpApiSchema.asText({ contentType: "text/csv" }))
const Ndjson = Schema.String.annotate({
  description: "`format=ndjson`: one submission (the list item) per line"
}).pipe(HttpApiSchema.asText({ contentType: "application/x-ndjson" }))

export class SubmissionsOutGroup extends HttpApiGroup.make("submissionsOut")
  .add(
    HttpApiEndpoint.get("listSubmissions", "/admin/forms/:formId/submissions", { params: formId, success: AdminSubmissionList, error: queried })
      .annotateMerge(doc(
        "List a form's submissions, oldest first",
        "adminListSubmissions",
        "Ordered by `created_at` then `id`. Query: `status` (`draft` | `submitted`), `since` (ISO 8601: keeps those " +
          "whose `updated_at` is at or after it)," + paging + " Values of slugs a later revision dropped are shown."
      )),
    HttpApiEndpoint.get("getSubmission", "/admin/submissions/:submissionId", { params: submissionId, success: AdminSubmissionEnvelope, error: read })
      .annotateMerge(doc("Get a submission", "adminGetSubmission")),
    HttpApiEndpoint.get("exportSubmissions", "/admin/forms/:formId/export", { params: formId, success: [Csv, Ndjson], error: queried })
      .annotateMerge(doc(
        "Export a form's submissions (streamed CSV or NDJSON)",
        "adminExportSubmissions",
        "Query: `format` (`csv`, the default, or `ndjson`), `status`. Streamed: the first bytes leave before the last " +
          "row is read. A form without submissions answers the header line (CSV) or an empty body (NDJSON)."
      )),
    HttpApiEndpoint.delete("eraseSubmission", "/admin/submissions/:submissionId", { params: submissionId, success: HttpApiSchema.NoContent, error: write })
      .annotateMerge(doc(
        "Erase a submission (right to be forgotten)",
        "adminEraseSubmission",
        "In one transaction: the submission and its values, unique claims, slot places, tags and contact link; the values " +
          "in its outbox payloads (they keep their ids and `erased: true`); its contact's tags recomputed, a contact left " +
          "with no submission deleted; a `submission.erased` event recorded. The idempotency key may be used again."
      )),
    HttpApiEndpoint.post("issueManageLink", "/admin/submissions/:submissionId/manage-link", {
      params: submissionId,
      success: ManageLinkCreated,
      error: write
    }).annotateMerge(doc(
      "A new manage link for a submitted submission, shown this once; the old one stops working",
      "adminIssueManageLink",
      "Audited as `submission.manage_link_created`."
    )),
    HttpApiEndpoint.get("listContacts", "/admin/contacts", { success: ContactList, error: queried })
      .annotateMerge(doc("List contacts, newest first; `email` finds one (compared lower-cased)." + paging, "adminListContacts")),
    HttpApiEndpoint.delete("eraseContact", "/admin/contacts/:contactId", { params: contactId, success: HttpApiSchema.NoContent, error: write })
      .annotateMerge(doc("Erase a contact and every submission linked to it", "adminEraseContact")),
    HttpApiEndpoint.get("listOutbox", "/admin/outbox", { success: OutboxEntryList, error: queried })
      .annotateMerge(doc(
        "List outbox events by state, newest first (never payloads)",
        "adminListOutbox",
        "Query: `state` (`dead`, the default, `pending` or `delivered`)," + paging
      )),
    HttpApiEndpoint.post("retryOutboxEvent", "/admin/outbox/:eventId/retry", { params: eventId, success: OutboxEntryEnvelope, error: write })
      .annotateMerge(doc("Queue a dead event again with a fresh round of attempts (409 EVENT_NOT_DEAD otherwise)", "adminRetryOutboxEvent"))
  )
  .middleware(OrganiserAuth)
  .annotateMerge(OpenApi.annotations({
    title: "Organiser: submissions out",
    description: "Listing, export, erasure, contacts and the outbox of the key's organisation. Same checks and limit as the " +
      "other organiser routes: key (401) → query (400 INVALID_QUERY, naming the parameter) → the `admin` limit (429) → " +
      "ids (404) → conflicts (409)."
  }))
{}
