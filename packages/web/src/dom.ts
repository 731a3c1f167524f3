/** A tiny element builder: attributes through setAttribute and text through text nodes, never HTML parsing. */

type Child = Node | string | null | undefined | false

export const h = <K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Readonly<Record<string, string | boolean | undefined>> = {},
  ...children: ReadonlyArray<Child>
): HTMLElementTagNameMap[K] => {
  const el = document.createElement(tag)
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === false) continue
    el.setAttribute(name, value === true ? "" : value)
  }
  append(el, children)
  return el
}

export const append = (parent: Node, children: ReadonlyArray<Child>): void => {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue
    parent.appendChild(typeof child === "string" ? document.createTextNode(child) : child)
  }
}

/** Replaces the content of `el` with plain text (textContent never parses markup). */
export const setText = (el: Element, text: string): void => {
  el.textContent = text
}

/**
 * The elements' base class: `HTMLElement` where there is a DOM; elsewhere (Node: server rendering, tooling
 * that imports the module) a stand-in, so that importing `@forms/web` never throws. Never constructed there.
 */
export const ElementBase: typeof HTMLElement =
  globalThis.HTMLElement ?? (class {} as unknown as typeof HTMLElement)
