/**
 * The elements' styles, themed by CSS custom properties set on the element or any ancestor. They are
 * adopted as a constructed stylesheet, which a page's `style-src 'self'` policy allows (a `<style>`
 * element would need 'unsafe-inline').
 */
import { loadedFrom } from "./loadedFrom.js"

export const css = `
:host{display:block;font-family:var(--forms-font,system-ui,sans-serif);color:var(--forms-color,#1a1a1a);
background:var(--forms-background,#fff);max-width:var(--forms-max-width,40rem);margin:0 auto;line-height:1.5}
*{box-sizing:border-box}
h1{font-size:1.6rem;margin:0 0 .25rem}h2{font-size:1.25rem;margin:1.5rem 0 .5rem}
.sub{color:var(--forms-muted,#4b5563);margin:0 0 1rem}
fieldset{border:1px solid var(--forms-border,#8a8f98);border-radius:var(--forms-radius,6px);padding:1rem;margin:0 0 1rem}
fieldset.group{border:0;padding:0;margin:0}
legend{font-weight:600;padding:0 .25rem}
.field{margin:0 0 1rem}
[hidden]{display:none!important}
.field>label{display:block;font-weight:500;margin-bottom:.25rem}
input:not([type=checkbox]):not([type=radio]),select,textarea{width:100%;font:inherit;color:inherit;
background:var(--forms-input-background,#fff);padding:.5rem;border:1px solid var(--forms-border,#8a8f98);
border-radius:var(--forms-radius,6px)}
.choice{display:flex;gap:.5rem;align-items:flex-start;margin:.5rem 0}
.choice>label{min-width:0;overflow-wrap:anywhere}
input[type=checkbox],input[type=radio]{flex:none;width:1.5rem;height:1.5rem;min-width:24px;min-height:24px;margin:0;
accent-color:var(--forms-accent,#1d4ed8)}
.slot-name{font-weight:600}.slot-when,.slot-places{white-space:nowrap}
:focus-visible{outline:3px solid var(--forms-focus,#1d4ed8);outline-offset:2px}
[aria-invalid=true]{border-color:var(--forms-error,#b42318)!important}
.req,.error{color:var(--forms-error,#b42318)}
.error{margin:.25rem 0 0;font-weight:500}
.help{color:var(--forms-muted,#4b5563);margin:.1rem 0 .35rem;font-size:.9em}
button{font:inherit;padding:.6rem 1.2rem;border:0;border-radius:var(--forms-radius,6px);cursor:pointer;
background:var(--forms-accent,#1d4ed8);color:var(--forms-accent-text,#fff)}
button[disabled]{opacity:.7;cursor:progress}
.state{color:var(--forms-muted,#4b5563);min-height:1.5em;margin:.5rem 0}
.notice{padding:.75rem 1rem;border-radius:var(--forms-radius,6px);border:1px solid var(--forms-border,#8a8f98);margin:0 0 1rem}
.notice.bad{border-color:var(--forms-error,#b42318);color:var(--forms-error,#b42318)}
.done{font-size:1.15rem}
ul.sections{padding-left:1.2rem}
.overdue{color:var(--forms-error,#b42318);font-weight:600}
.locked{font-weight:600}
`

let sheet: CSSStyleSheet | undefined

/** Gives a shadow root the styles: one shared constructed sheet. */
export const adoptStyles = (root: ShadowRoot): void => {
  sheet ??= new CSSStyleSheet()
  if (sheet.cssRules.length === 0) sheet.replaceSync(css)
  root.adoptedStyleSheets = [sheet]
}

/** The API's origin: the `base-url` attribute, else the origin this script was loaded from. */
export const baseUrlOf = (el: Element): string => {
  const attr = el.getAttribute("base-url")
  const base = attr !== null && attr.trim() !== "" ? attr.trim() : new URL(loadedFrom ?? location.href).origin
  return base.replace(/\/+$/, "")
}
