/** `Content-Disposition: attachment` with an upload's name (RFC 6266: an ASCII `filename` and a UTF-8 `filename*`). */

// RFC 5987 attr-char: what may stand unencoded in `filename*`.
const attrChar = /[A-Za-z0-9!#$&+.^_`|~-]/

const encodeExtended = (name: string): string => {
  let out = ""
  for (const byte of new TextEncoder().encode(name)) {
    const c = String.fromCharCode(byte)
    out += byte < 0x80 && attrChar.test(c) ? c : `%${byte.toString(16).toUpperCase().padStart(2, "0")}`
  }
  return out
}

/** The header's value: the ASCII fallback keeps printable ASCII but quotes and backslashes. */
export const attachment = (name: string): string => {
  const fallback = name.replace(/[^\x20-\x7e]|["\\]/g, "_")
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encodeExtended(name)}`
}
