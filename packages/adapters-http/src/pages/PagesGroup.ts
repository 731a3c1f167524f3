/** The pages, the element script and the site's icon, in the API definition so /openapi.json lists them. */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { markPublic } from "../http/openApiShape.js"
import { GonePage, Icon, NotFoundPage, NotModified, Page, RateLimitedPage, Script, UnavailablePage } from "./wire.js"

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
    }).annotate(OpenApi.Summary, "The <forms-embed> element (ETag; 304 on If-None-Match)"),
    HttpApiEndpoint.get("favicon", "/favicon.ico", {
      success: [Icon, NotModified]
    }).annotate(OpenApi.Summary, "The site's icon, an SVG (ETag; 304 on If-None-Match)")
  )
  .pipe(markPublic)
  .annotateMerge(OpenApi.annotations({
    title: "Pages",
    description: "Pages for visitors and artists (HTML) and the embeddable element. Pages carry a " +
      "Content-Security-Policy allowing only this origin and `Referrer-Policy: no-referrer`. " +
      "`/embed.js` answers CORS for any origin."
  }))
{}
