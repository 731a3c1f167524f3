/**
 * The embed script: defines `<forms-embed>` (a public form) and `<forms-portal>` (an artist portal) when it is
 * loaded, and exports what `@forms/web` exports. Bundled as an ES module (`@forms/web/embed.js`) and as the
 * classic script the server serves at `/embed.js` (an IIFE, whose exports go nowhere).
 */
import { defineElements } from "./index.js"

defineElements()

export * from "./index.js"
