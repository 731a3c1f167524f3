/** Trimming and emptiness (CONTRACT §4): what `required` checks and what skips every other rule. */

/** `String.prototype.trim`, skipping the call when both ends are visible ASCII (the common case). */
export const trimString = (s: string): string => {
  const n = s.length
  if (n === 0) return s
  const first = s.charCodeAt(0)
  const last = s.charCodeAt(n - 1)
  return first > 32 && first < 127 && last > 32 && last < 127 ? s : s.trim()
}

/** Empty: absent (undefined), null, a string empty after trimming, or an empty array. */
export const isEmptyValue = (value: unknown): boolean =>
  value === undefined ||
  value === null ||
  (typeof value === "string" && trimString(value).length === 0) ||
  (Array.isArray(value) && value.length === 0)
