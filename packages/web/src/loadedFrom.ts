/**
 * The address this script was loaded from, read once while it is evaluated: the elements' default `base-url`.
 * A classic `<script src>` is `document.currentScript`. A module has no current script: the ES module builds
 * read `import.meta.url`; the classic bundle cannot name `import.meta` (a classic script would not parse it:
 * its build defines it away), so loaded by `<script type="module">` it finds its `<script>` by the address's
 * `/embed.js`. Else the page's own address.
 */

const currentScript = (): string | undefined => {
  if (typeof document === "undefined") return undefined
  const script = document.currentScript
  return script instanceof HTMLScriptElement && script.src !== "" ? script.src : undefined
}

const moduleUrl = (): string | undefined => {
  // The classic bundle's build replaces `import.meta.url` with `undefined`.
  const url: string | undefined = import.meta.url
  return typeof url === "string" && url !== "" ? url : undefined
}

const pathOf = (url: string): string => {
  try {
    return new URL(url).pathname
  } catch {
    return ""
  }
}

const embedScript = (): string | undefined => {
  if (typeof document === "undefined") return undefined
  const scripts = Array.from(document.querySelectorAll<HTMLScriptElement>("script[src]"))
  return scripts.find((script) => pathOf(script.src).endsWith("/embed.js"))?.src
}

export const loadedFrom: string | undefined = currentScript() ?? moduleUrl() ?? embedScript() ??
  (typeof location === "undefined" ? undefined : location.href)
