// The browser elements in an application built with a bundler (Vite, esbuild, webpack, …). A page without one
// needs only <script type="module" src="https://forms.example.org/embed.js"></script> and the element's tag.
import { defineElements, FormsEmbed } from "@forms/web"

/** A public form of the forms service at `baseUrl`, to put anywhere in the page. */
export const publicForm = (token: string, baseUrl: string): FormsEmbed => {
  defineElements() // <forms-embed> and <forms-portal>, once; where there is no DOM (server rendering) nothing
  const form = document.createElement("forms-embed") // typed: a FormsEmbed
  form.setAttribute("token", token)
  form.setAttribute("base-url", baseUrl) // bundled, the module's own origin is the application's
  return form
}

if (typeof document !== "undefined") document.body.append(publicForm("volunteers-2027-public-token", "https://forms.example.org"))
