/**
 * The `file` field type (uploads): its value's shape, its `max_bytes` and `accept` rules, and what a detected
 * content type is matched against. `in` and the count bounds need the stored uploads: the files feature checks them.
 */

/** The type name of a file field. */
export const fileFieldType = "file"

export const MiB = 1024 * 1024
/** A file field's `max_bytes` when it sets none. */
export const defaultFileMaxBytes = 10 * MiB
/** The server's cap on any field's `max_bytes` when not configured otherwise. */
export const defaultServerFileMaxBytes = 25 * MiB
/** The number of files a field holds at most when its `max` is not set. */
export const defaultFileMaxCount = 10

export const filesInvalidMessage = "Must be a file id or a list of file ids."
export const fileInMessage = "Every file must be an upload of this submission for this field."
export const fileTypeMessage = "This type of file is not accepted here."

/** The file ids of a value (a single string is one id); undefined when not a string or an array of strings. */
export const fileIdsOf = (value: unknown): ReadonlyArray<string> | undefined => {
  if (typeof value === "string") return [value]
  if (!Array.isArray(value)) return undefined
  for (const item of value) if (typeof item !== "string") return undefined
  return value as ReadonlyArray<string>
}

/**
 * Extensions and the type their content is taken as, one table for the types named by `accept` and for
 * content without a signature (only `.txt` and `.csv` are then read from the name).
 */
export const extensionTypes: Readonly<Record<string, string>> = {
  ".pdf": "application/pdf",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".webp": "image/webp",
  ".heic": "image/heic",
  ".tif": "image/tiff",
  ".tiff": "image/tiff",
  ".svg": "image/svg+xml",
  ".txt": "text/plain",
  ".csv": "text/csv",
  ".zip": "application/zip",
  ".docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  ".xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  ".pptx": "application/vnd.openxmlformats-officedocument.presentationml.presentation",
  ".odt": "application/vnd.oasis.opendocument.text",
  ".ods": "application/vnd.oasis.opendocument.spreadsheet",
  ".doc": "application/x-cfb",
  ".xls": "application/x-cfb",
  ".mp3": "audio/mpeg",
  ".wav": "audio/wav",
  ".mp4": "video/mp4",
  ".mov": "video/quicktime"
}

/** Types read from the name when the content has no signature. */
const signatureless = new Set([".txt", ".csv"])

const extensionOf = (name: string): string => {
  const dot = name.lastIndexOf(".")
  return dot < 0 ? "" : name.slice(dot).toLowerCase()
}

/** The content type of an upload: its signature's when found, else `text/plain`/`text/csv` by name, else octet-stream. */
export const contentTypeOf = (detected: string | undefined, name: string): string => {
  if (detected !== undefined) return detected
  const ext = extensionOf(name)
  return signatureless.has(ext) ? (extensionTypes[ext] ?? "application/octet-stream") : "application/octet-stream"
}

/** Types `image/*` never admits: they can carry script. */
const scriptable = (type: string): boolean => type === "image/svg+xml" || type.includes("html") || type.includes("xml")

const mimePattern = /^[a-z0-9][a-z0-9!#$&^_.+-]*\/(\*|[a-z0-9][a-z0-9!#$&^_.+-]*)$/

/** An `accept` entry that can be matched: a known extension, `type/*` or a MIME type (lower case). */
export const isAcceptEntry = (entry: unknown): entry is string =>
  typeof entry === "string" && (entry.startsWith(".") ? extensionTypes[entry.toLowerCase()] !== undefined : mimePattern.test(entry))

/** Whether `accept` (absent: any) admits content of type `contentType`. */
export const accepts = (accept: ReadonlyArray<string> | undefined, contentType: string): boolean => {
  if (accept === undefined) return true
  return accept.some((entry) => {
    if (entry.startsWith(".")) return extensionTypes[entry.toLowerCase()] === contentType
    if (entry.endsWith("/*")) return contentType.startsWith(entry.slice(0, -1)) && !(entry === "image/*" && scriptable(contentType))
    return entry === contentType
  })
}

/** A file field's `max_bytes`: its own, else the default (capped by the server's). */
export const fileMaxBytesOf = (rules: { readonly max_bytes?: number | undefined } | null, serverMax: number): number =>
  Math.min(rules?.max_bytes ?? defaultFileMaxBytes, serverMax)

export interface FileRuleProblem {
  readonly member: "max_bytes" | "accept"
  readonly rule: "invalid" | "max"
  readonly message: string
}

/** What the definition check refuses in a file field's `max_bytes` and `accept`. */
export const fileRuleProblems = (
  rules: { readonly max_bytes?: unknown; readonly accept?: unknown },
  serverMax: number
): ReadonlyArray<FileRuleProblem> => {
  const problems: Array<FileRuleProblem> = []
  const maxBytes = rules.max_bytes
  if (maxBytes !== undefined) {
    if (typeof maxBytes !== "number" || !Number.isSafeInteger(maxBytes) || maxBytes < 1) {
      problems.push({ member: "max_bytes", rule: "invalid", message: "max_bytes must be a whole number of bytes above 0." })
    } else if (maxBytes > serverMax) {
      problems.push({ member: "max_bytes", rule: "max", message: `max_bytes is at most ${serverMax}.` })
    }
  }
  const accept = rules.accept
  if (accept !== undefined && (!Array.isArray(accept) || accept.length === 0 || !accept.every(isAcceptEntry))) {
    problems.push({
      member: "accept",
      rule: "invalid",
      message: "accept must list MIME types (type/subtype or type/*, lower case) or known extensions such as .pdf."
    })
  }
  return problems
}
