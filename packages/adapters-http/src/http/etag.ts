/** Strong entity tags of fixed content (the script, the icon, the docs page) and the `If-None-Match` check. */
import { createHash } from "node:crypto"

/** A strong ETag of the content: the first 32 characters of its SHA-256 in base64url, quoted. */
export const etagOf = (content: string | Uint8Array): string =>
  `"${createHash("sha256").update(content).digest("base64url").slice(0, 32)}"`

/** `If-None-Match` holds `etag`: one of its list, its weak form, or `*` (RFC 9110 §13.1.2, weak comparison). */
export const ifNoneMatchHolds = (header: string | undefined, etag: string): boolean =>
  header !== undefined &&
  header.split(",").some((tag) => {
    const t = tag.trim()
    return t === "*" || t === etag || t === `W/${etag}`
  })
