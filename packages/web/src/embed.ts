/** The module `/embed.js`: defines `<forms-embed>` (a public form) and `<forms-portal>` (an artist portal). */
import { FormsEmbed } from "./FormsEmbed.js"
import { FormsPortal } from "./FormsPortal.js"

if (customElements.get("forms-embed") === undefined) customElements.define("forms-embed", FormsEmbed)
if (customElements.get("forms-portal") === undefined) customElements.define("forms-portal", FormsPortal)

export { FormsEmbed, FormsPortal }
