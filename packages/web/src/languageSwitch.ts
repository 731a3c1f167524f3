/**
 * The language switch of a form with several languages (CONTRACT §19): a labelled `<select>` naming each language
 * in itself (`Intl.DisplayNames`), the form's chosen one selected. Choosing one calls `onChoose` with its tag.
 */
import { h } from "./dom.js"

/** A language's name in that language ("Nederlands" for `nl`), or its tag when the browser cannot name it. */
export const nativeName = (tag: string): string => {
  try {
    const name = new Intl.DisplayNames([tag], { type: "language" }).of(tag)
    return name === undefined || name === "" ? tag : name.charAt(0).toLocaleUpperCase(tag) + name.slice(1)
  } catch {
    return tag
  }
}

export const languageSwitch = (
  languages: ReadonlyArray<string>,
  chosen: string,
  onChoose: (tag: string) => void
): HTMLElement | null => {
  if (languages.length < 2) return null
  const select = h("select", { id: "forms-language", "aria-label": "Language / Taal / Sprache / Langue" })
  for (const tag of languages) {
    const option = h("option", { value: tag, lang: tag }, nativeName(tag))
    option.selected = tag === chosen
    select.append(option)
  }
  select.addEventListener("change", () => onChoose(select.value))
  return h("div", { class: "languages" }, select)
}
