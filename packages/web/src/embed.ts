/**
 * The module `/embed.js` (`@forms/web/embed.js`): defines `<forms-embed>` (a public form) and `<forms-portal>`
 * (an artist portal) when it is loaded, and exports what `@forms/web` exports.
 */
import { defineElements } from "./index.js"

defineElements()

export * from "./index.js"
