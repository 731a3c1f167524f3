/**
 * The bytes of an export (CONTRACT §12): CSV of RFC 4180 with CRLF line ends, a UTF-8 byte-order mark, time-slot
 * cells naming their slots and the formula-injection prefix, or NDJSON. Pure: one row in, one line out, so an
 * export never holds more than the row being written.
 */
import { timeSlotsFieldType } from "../organiser/forms/checkDefinition.js"
import { fileFieldType } from "../rules/fileRules.js"
import { type LabelledSlot, slotLabel } from "../shifts/slotLabel.js"
import type { AdminSubmission, ExportColumns } from "./SubmissionsOutModel.js"

export const fixedExportColumns = ["submission_id", "status", "created_at", "updated_at", "submitted_at"] as const
/** The last column, after the fields': the submission's language (CONTRACT §19). */
export const languageColumn = "language"

const iso = (ms: number | null): string => (ms === null ? "" : new Date(ms).toISOString())

/** A value as a cell: arrays joined with `; `, booleans `true`/`false`, numbers as JSON writes them, absent empty. */
export const cellText = (value: unknown): string => {
  if (value === undefined || value === null) return ""
  if (typeof value === "string") return value
  if (typeof value === "number" || typeof value === "boolean") return JSON.stringify(value)
  if (Array.isArray(value)) return value.map(cellText).join("; ")
  return JSON.stringify(value)
}

/** Spreadsheets run a cell that starts with one of these as a formula: prefixed with `'`. */
const formulaStart = /^[=+\-@\t\r]/

/** One CSV field: the formula prefix, then quoted when it holds a quote, comma, CR or LF (quotes doubled). */
export const csvField = (text: string): string => {
  const safe = formulaStart.test(text) ? `'${text}` : text
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll("\"", "\"\"")}"` : safe
}

export const csvLine = (cells: ReadonlyArray<string>): string => `${cells.map(csvField).join(",")}\r\n`

/** U+FEFF first: spreadsheet programs then read the file as UTF-8 (accented names stay right). */
export const byteOrderMark = "\uFEFF"

/** The header line, led by the byte-order mark: the first bytes of a CSV export. */
export const csvHeader = (columns: ExportColumns): string =>
  byteOrderMark + csvLine([...fixedExportColumns, ...columns.slugs, languageColumn])

/** A time-slot value as a cell: each slot named by its label (an id without one as stored), joined with `; `. */
export const slotCellText = (value: unknown, labels: Readonly<Record<string, string>>): string => {
  const named = (item: unknown): string =>
    typeof item === "string" && Object.hasOwn(labels, item.trim()) ? labels[item.trim()] ?? item : cellText(item)
  return Array.isArray(value) ? value.map(named).join("; ") : value === undefined || value === null ? "" : named(value)
}

/** A file field's cell: the names of the submission's files of that field, joined with `; `. */
export const fileCellText = (s: AdminSubmission, slug: string): string =>
  s.files !== undefined && Object.hasOwn(s.files, slug) ? (s.files[slug] ?? []).map((file) => file.name).join("; ") : ""

export const csvRow = (columns: ExportColumns, s: AdminSubmission): string => {
  const slots = columns.time_slots
  const slotSlugs = new Set(slots?.slugs ?? [])
  const fileSlugs = new Set(columns.file_slugs ?? [])
  const cell = (slug: string): string => {
    if (fileSlugs.has(slug)) return fileCellText(s, slug)
    if (!Object.hasOwn(s.values, slug)) return ""
    const value = s.values[slug]
    return slots !== undefined && slotSlugs.has(slug) ? slotCellText(value, slots.labels) : cellText(value)
  }
  return csvLine([s.id, s.status, iso(s.created_at), iso(s.updated_at), iso(s.submitted_at), ...columns.slugs.map(cell), s.language])
}

/**
 * The `time_slots` part of an export's columns: the time-slot fields among `fields` (in `slugs` order) and the label
 * of each slot in `slots` (the organisation's, so a value saved under an earlier event is named too); undefined
 * when the form has no time-slot field.
 */
export const slotColumns = (
  slugs: ReadonlyArray<string>,
  fields: ReadonlyArray<{ readonly slug: string; readonly type: string }>,
  slots: ReadonlyArray<LabelledSlot>
): ExportColumns["time_slots"] => {
  const slotFields = new Set(fields.filter((field) => field.type === timeSlotsFieldType).map((field) => field.slug))
  if (slotFields.size === 0) return undefined
  const labels = Object.create(null) as Record<string, string>
  for (const slot of slots) labels[slot.id] = slotLabel(slot)
  return { slugs: slugs.filter((slug) => slotFields.has(slug)), labels }
}

/** The `file_slugs` of an export's columns: the file fields among `fields`, in `slugs` order; undefined when none. */
export const fileColumns = (
  slugs: ReadonlyArray<string>,
  fields: ReadonlyArray<{ readonly slug: string; readonly type: string }>
): ReadonlyArray<string> | undefined => {
  const files = new Set(fields.filter((field) => field.type === fileFieldType).map((field) => field.slug))
  return files.size === 0 ? undefined : slugs.filter((slug) => files.has(slug))
}
