/**
 * The site's icon, served at `/favicon.ico` (where browsers look for one unasked) and named by every page: an SVG
 * of a form's lines on the elements' accent colour, kept here as text so that it ships with the adapter.
 */
import { etagOf } from "../http/etag.js"

export const faviconSvg =
  `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">` +
  `<rect width="32" height="32" rx="6" fill="#1d4ed8"/>` +
  `<path d="M9 10h14M9 16h14M9 22h8" stroke="#fff" stroke-width="3" stroke-linecap="round"/>` +
  `</svg>\n`

/** Its media type: browsers take an SVG icon at any path when it is named so. */
export const faviconType = "image/svg+xml"

/** Strong ETag of the icon's bytes. */
export const faviconEtag = etagOf(faviconSvg)
