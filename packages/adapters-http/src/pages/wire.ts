/** The pages' answers as the document shows them: HTML pages of their status, the element script, a 304. */
import { Schema } from "effect"
import { HttpApiSchema } from "effect/http-api"

const html = (status: number, description: string) =>
  Schema.String.annotate({ description }).pipe(
    HttpApiSchema.status(status),
    HttpApiSchema.asText({ contentType: "text/html" })
  )

export const Page = html(200, "The page: an HTML shell around the element, which loads /embed.js.")
export const NotFoundPage = html(404, "The not-found page (HTML).")
export const GonePage = html(410, "The artist of this portal no longer exists (HTML).")
export const RateLimitedPage = html(429, "Too many requests (HTML); `Retry-After` says when to try again.")
export const UnavailablePage = html(503, "The database cannot be reached (HTML).")
export const Script = Schema.String.annotate({
  description: "A classic script (loadable as a module too) defining <forms-embed> and <forms-portal>."
}).pipe(
  HttpApiSchema.asText({ contentType: "text/javascript" })
)
export const Icon = Schema.String.annotate({ description: "The site's icon (SVG)." }).pipe(
  HttpApiSchema.asText({ contentType: "image/svg+xml" })
)
export const NotModified = Schema.Void.annotate({ description: "Not modified: the `If-None-Match` ETag is current." }).pipe(
  HttpApiSchema.status(304)
)
