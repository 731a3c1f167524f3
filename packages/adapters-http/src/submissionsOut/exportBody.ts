/** The bytes of an export, streamed: CSV (a header line, then one line per row) or NDJSON (one submission per line). */
import { Stream } from "effect"
import { type AdminSubmission, csvHeader, csvRow, type ExportColumns } from "@forms/domain"
import { toAdminSubmissionWire } from "./wire.js"

const encoder = new TextEncoder()

/** One encoded chunk per batch of rows the database handed over, never the whole export. */
export const exportBody = (format: "csv" | "ndjson", columns: ExportColumns, rows: Stream.Stream<AdminSubmission, unknown>) =>
  format === "csv"
    ? Stream.concat(
      Stream.succeed(encoder.encode(csvHeader(columns))),
      Stream.mapArray(rows, (batch) => [encoder.encode(batch.map((row) => csvRow(columns, row)).join(""))] as const)
    )
    : Stream.mapArray(rows, (batch) =>
      [encoder.encode(batch.map((row) => `${JSON.stringify(toAdminSubmissionWire(row))}\n`).join(""))] as const)

/** The file name offered: the form id, reduced to safe characters. */
export const exportFileName = (formId: string, format: string) =>
  `${formId.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, 100) || "export"}.${format}`
