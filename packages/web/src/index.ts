/**
 * `@forms/web`: the `<forms-embed>` (a public form, CONTRACT §3) and `<forms-portal>` (an artist portal, §5)
 * custom elements. Importing this module defines nothing: call `defineElements()` once. `@forms/web/embed.js`
 * is the same module bundled and minified into one file that defines both elements when it is loaded (and the
 * server's `/embed.js` the same as a classic script).
 */
import { FormsEmbed } from "./FormsEmbed.js"
import { FormsPortal } from "./FormsPortal.js"

export { FormsEmbed, FormsPortal }

const embedName = "forms-embed"
const portalName = "forms-portal"

/**
 * Defines `<forms-embed>` and `<forms-portal>` in `registry` (the page's `customElements` by default). A name
 * already defined is left as it is, so a second call, or a page that also loads `/embed.js`, is harmless.
 * Without a registry (Node: server rendering) it does nothing.
 */
export const defineElements = (registry: CustomElementRegistry | undefined = globalThis.customElements): void => {
  if (registry === undefined) return
  if (registry.get(embedName) === undefined) registry.define(embedName, FormsEmbed)
  if (registry.get(portalName) === undefined) registry.define(portalName, FormsPortal)
}

declare global {
  interface HTMLElementTagNameMap {
    "forms-embed": FormsEmbed
    "forms-portal": FormsPortal
  }
}
