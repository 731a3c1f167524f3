/** The rule of an upload's name (`X-File-Name`, already percent-decoded): 1–255 code points, no control character, `/` or `\`. */

export const maxFileNameLength = 255

// C0 and C1 control characters, DEL, and both path separators.
const forbidden = /[\u0000-\u001f\u007f-\u009f/\\]/

/** Whether `name` may name an upload. */
export const isFileName = (name: string): boolean => {
  if (name.length === 0 || forbidden.test(name)) return false
  let n = 0
  for (const _ of name) if (++n > maxFileNameLength) return false
  return true
}
