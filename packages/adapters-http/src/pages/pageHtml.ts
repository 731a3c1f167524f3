/** The HTML of the pages: a thin shell around the element, and the error pages. */
import { HttpServerResponse } from "effect/http"

const escapes: Readonly<Record<string, string>> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;", "'": "&#39;" }

/** Text or attribute value escaped for HTML (a form name or a token never becomes markup). */
export const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => escapes[c] ?? c)

/**
 * Only the service's own origin, and no inline script or style: the element adopts a constructed
 * stylesheet, which style-src does not govern. `base-uri`/`form-action` close the remaining injection
 * routes; `frame-ancestors` is left open so that organisers may frame the hosted page.
 */
export const contentSecurityPolicy = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'self'"
].join("; ")

export const pageHeaders: Readonly<Record<string, string>> = {
  "content-security-policy": contentSecurityPolicy,
  "referrer-policy": "no-referrer",
  "x-content-type-options": "nosniff",
  // The URL holds a token: no shared cache keeps the page.
  "cache-control": "no-store"
}

/** A page in `lang` (a BCP 47 tag; the service's own pages are in English). */
const document = (title: string, body: string, script: string | undefined, lang = "en"): string =>
  `<!doctype html>
<html lang="${escapeHtml(lang)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(title)}</title>
<link rel="icon" href="/favicon.ico" type="image/svg+xml">
${script === undefined ? "" : `<script type="module" src="${escapeHtml(script)}"></script>\n`}</head>
<body>
<main>
${body}
</main>
</body>
</html>
`

export const htmlResponse = (status: number, html: string, headers: Readonly<Record<string, string>> = {}) =>
  HttpServerResponse.text(html, {
    status,
    contentType: "text/html; charset=utf-8",
    headers: { ...pageHeaders, ...headers }
  })

/** The page of one element: `<forms-embed token>` or `<forms-portal token>`. */
export const elementPage = (
  title: string,
  element: "forms-embed" | "forms-portal",
  token: string,
  options: { readonly version: string; readonly lang?: string | undefined }
) => {
  // The element asks for the form in the page's language: the page and its texts agree. `data-page`: the element is
  // the page, so its language switch changes the page's language and address too.
  const lang = options.lang === undefined ? "" : ` lang="${escapeHtml(options.lang)}"`
  return document(
    title,
    `<${element} token="${escapeHtml(token)}"${lang} data-page></${element}>`,
    `/embed.js?v=${options.version}`,
    options.lang
  )
}

/** An error page: a heading and a sentence, no script; in `lang` (English unless told). */
export const errorPage = (title: string, text: string, lang?: string) =>
  document(title, `<h1>${escapeHtml(title)}</h1>\n<p>${escapeHtml(text)}</p>`, undefined, lang)

/** The sentence of a page's 404 (English: a path the router cannot even match is answered before any language). */
export const notFoundText = "This link does not lead to a form or portal. It may have expired: ask the organiser for a new one."

const pagePath = /^\/(f|portal)\//i

/**
 * The HTML 404 of a page's path whose token names nothing the router can even match (a segment that does not
 * decode, or decodes to U+0000): a page answers its errors as pages. Undefined for other paths.
 */
export const notFoundPageFor = (path: string) => {
  const page = pagePath.exec(path)?.[1]?.toLowerCase()
  if (page === undefined) return undefined
  return htmlResponse(404, errorPage(page === "f" ? "Form not found" : "Portal not found", notFoundText))
}
