/**
 * The bytes of an export (CONTRACT §12): CSV of RFC 4180 with CRLF line ends and the formula-injection prefix,
 * or NDJSON. Pure: one row in, one line out, so an export never holds more than the row being written.
 */
import type { AdminSubmission, ExportColumns } from "./SubmissionsOutModel.js"

export const fixedExportColumns = ["submission_id", "status", "created_at", "updated_at", "submitted_at"] as const

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

export const csvHeader = (columns: ExportColumns): string => csvLine([...fixedExportColumns, ...columns.slugs])

export const csvRow = (columns: ExportColumns, s: AdminSubmission): string =>
  csvLine([
    s.id,
    s.status,
    iso(s.created_at),
    iso(s.updated_at),
    iso(s.submitted_at),
    ...columns.slugs.map((slug) => (Object.hasOwn(s.values, slug) ? cellText(s.values[slug]) : ""))
  ])
