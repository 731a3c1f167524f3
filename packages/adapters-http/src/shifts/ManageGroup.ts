/** The `manage` group: a volunteer's own places under a manage token (the link of the submit answer). */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { alwaysErrors, ApiConflict, ApiNotFound, ApiRateLimited } from "../http/ErrorEnvelope.js"
import { markPublic, operation } from "../http/openApiShape.js"
import { ManageEnvelope } from "./manageWire.js"

const token = { token: Schema.String }
const tokenAndSlot = { token: Schema.String, slotId: Schema.String }

export class ManageGroup extends HttpApiGroup.make("manage")
  .add(
    HttpApiEndpoint.get("getManage", "/public/manage/:token", {
      params: token,
      success: ManageEnvelope,
      error: [ApiNotFound, ApiRateLimited, ...alwaysErrors]
    }).annotateMerge(operation(
      "Read one's places",
      "The form's name and the submission's places, each with its slot as the form's slot list shows it, its status " +
        "and its rank on the waitlist. Token (404 MANAGE_NOT_FOUND) → the form's write limit (429)."
    )),
    HttpApiEndpoint.delete("cancelPlace", "/public/manage/:token/places/:slotId", {
      params: tokenAndSlot,
      success: HttpApiSchema.NoContent,
      error: [ApiNotFound, ApiRateLimited, ApiConflict, ...alwaysErrors]
    }).annotateMerge(operation(
      "Give a place up",
      "Token (404 MANAGE_NOT_FOUND) → the form's write limit (429) → a place in this slot (404 PLACE_NOT_FOUND) → " +
        "time (409 CANCEL_CLOSED: a confirmed place only until the form's `cancel_until_hours` before the slot " +
        "starts, a waiting one until it starts) → 204. The slot leaves the submission's values, `place.cancelled` " +
        "is recorded and the earliest waiting place of the slot is confirmed, in one transaction."
    ))
  )
  .pipe(markPublic)
  .annotateMerge(OpenApi.annotations({
    title: "Managing one's shifts",
    description: "A volunteer's places under the manage token of the submit answer's `manage_url`; the form's status " +
      "and window do not matter, the form's write limit counts every request."
  }))
{}
