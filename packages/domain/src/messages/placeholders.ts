/** The placeholders of a message's text: `{{name}}`, name a slug or one of the fixed names. */

/** Names every form has: the answers, the form's name, the manage link. */
export const fixedPlaceholders: ReadonlySet<string> = new Set(["answers", "form_name", "manage_url"])

const placeholderPattern = /\{\{\s*([^{}]*?)\s*\}\}/g

/** Every placeholder name in `text`, in order of appearance. */
export const placeholdersOf = (text: string): ReadonlyArray<string> =>
  Array.from(text.matchAll(placeholderPattern), (match) => match[1] as string)

/** `text` with each placeholder replaced by `fill(name)`; the result of `fill` is never read as a placeholder. */
export const fillPlaceholders = (text: string, fill: (name: string) => string): string =>
  text.replace(placeholderPattern, (_, name: string) => fill(name))
