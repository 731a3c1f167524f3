/**
 * Links in a message's body (a resume, manage or portal link) are stored as a marker, never as the URL: the URL is
 * rendered at each send attempt from the token kept encrypted beside the message, and organisers see `[link]`.
 * The marker holds a control character (U+001D) that no composed text keeps, so a value can never forge one.
 */

/** Where a message's link goes in its stored body. */
export const linkMarker = "\u001dlink\u001d"

const separator = /\u001d/g

/** Text that goes into a body (a template, a value): the marker's character removed, so it can never form one. */
export const withoutMarker = (text: string): string => text.replace(separator, "")

/** The body as organisers see it: every link `[link]`. */
export const organiserBody = (body: string): string => body.split(linkMarker).join("[link]")

/** The body as sent: every link the URL rendered for this attempt (none kept: an empty line part). */
export const renderedBody = (body: string, url: string | undefined): string => body.split(linkMarker).join(url ?? "")

/** A resume link: the form's page with the resume token in the fragment (never sent to a server by a browser). */
export const resumeUrl = (publicBaseUrl: string, pageToken: string, resumeToken: string): string =>
  `${publicBaseUrl}/f/${encodeURIComponent(pageToken)}#resume=${encodeURIComponent(resumeToken)}`
