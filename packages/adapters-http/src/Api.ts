/**
 * The HTTP API definition, shared by the server, the typed client and the OpenAPI document: it only
 * assembles the groups of the features, in the order the document lists them.
 */
import { HttpApi, OpenApi } from "effect/http-api"
import { FilesAdminGroup } from "./files/FilesAdminGroup.js"
import { FilesGroup } from "./files/FilesGroup.js"
import { MessagesGroup } from "./messages/MessagesGroup.js"
import { apiLicense, shapeDocument } from "./http/openApiShape.js"
import { ArtistsGroup } from "./organiser/artists/ArtistsGroup.js"
import { CatalogGroup } from "./organiser/catalog/CatalogGroup.js"
import { EngagementsGroup } from "./organiser/engagements/EngagementsGroup.js"
import { FormsGroup } from "./organiser/forms/FormsGroup.js"
import { PagesGroup } from "./pages/PagesGroup.js"
import { PortalGroup } from "./portal/PortalGroup.js"
import { PublicFormsGroup } from "./publicForms/PublicFormsGroup.js"
import { ManageGroup } from "./shifts/ManageGroup.js"
import { SubmissionsOutGroup } from "./submissionsOut/SubmissionsOutGroup.js"
import { SystemGroup } from "./system/SystemGroup.js"
import { WebhooksGroup } from "./webhooks/WebhooksGroup.js"

export class Api extends HttpApi.make("forms")
  .add(PublicFormsGroup)
  .add(FilesGroup)
  .add(ManageGroup)
  .add(PortalGroup)
  .add(SystemGroup)
  .add(CatalogGroup)
  .add(ArtistsGroup)
  .add(EngagementsGroup)
  .add(SubmissionsOutGroup)
  .add(FilesAdminGroup)
  .add(WebhooksGroup)
  .add(MessagesGroup)
  .add(FormsGroup)
  .add(PagesGroup)
  .annotateMerge(OpenApi.annotations({
    title: "Forms and artist portal",
    version: "0.1.0",
    license: apiLicense,
    transform: shapeDocument,
    description: "Every JSON answer is `{ data }` on success and `{ error: { code, message, fields? } }` otherwise. " +
      "Every response carries `x-request-id`."
  }))
{}
