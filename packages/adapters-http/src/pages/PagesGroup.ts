/** The pages and the element script, in the API definition so /openapi.json lists them. */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { markPublic } from "../http/openApiShape.js"

const html = (status: number, description: string) =>
  Schema.String.annotate({ description }).pipe(
    HttpApiSchema.status(status),
    HttpApiSchema.asText({ contentType: "text/html" })
  )

const Page = html(200, "The page: an HTML shell around the element, which loads /embed.js.")
const NotFoundPage = html(404, "The not-found page (HTML).")
const GonePage = html(410, "The artist of this portal no longer exists (HTML).")
const RateLimitedPage = html(429, "Too many requests (HTML); `Retry-After` says when to try again.")
const UnavailablePage = html(503, "The database cannot be reached (HTML).")
const Script = Schema.String.annotate({ description: "A classic script (loadable as a module too) defining <forms-embed> and <forms-portal>." }).pipe(
  HttpApiSchema.asText({ contentType: "text/javascript" })
)
const NotModified = Schema.Void.annotate({ description: "Not modified: the `If-None-Match` ETag is current." }).pipe(
  HttpApiSchema.status(304)
)

const token = { token: Schema.String }

export class PagesGroup extends HttpApiGroup.make("pages")
  .add(
    HttpApiEndpoint.get("formPage", "/f/:token", {
      params: token,
      success: Page,
      error: [NotFoundPage, UnavailablePage]
    }).annotate(OpenApi.Summary, "The form as a web page"),
    HttpApiEndpoint.get("portalPage", "/portal/:token", {
      params: token,
      success: Page,
      error: [NotFoundPage, GonePage, RateLimitedPage, UnavailablePage]
    }).annotate(OpenApi.Summary, "The artist portal as a web page"),
    HttpApiEndpoint.get("embedScript", "/embed.js", {
      success: [Script, NotModified]
    }).annotate(OpenApi.Summary, "The <forms-embed> element (ETag; 304 on If-None-Match)")
  )
  .pipe(markPublic)
  .annotateMerge(OpenApi.annotations({
    title: "Pages",
    description: "Pages for visitors and artists (HTML) and the embeddable element. Pages carry a " +
      "Content-Security-Policy allowing only this origin and `Referrer-Policy: no-referrer`. " +
      "`/embed.js` answers CORS for any origin."
  }))
{}
