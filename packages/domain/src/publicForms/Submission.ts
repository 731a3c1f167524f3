/** A form submission: a draft saved any number of times, then submitted once. */
import type { Values } from "../forms/Values.js"

export type SubmissionStatus = "draft" | "submitted"

export interface Submission {
  readonly id: string
  readonly schema_id: string
  readonly status: SubmissionStatus
  readonly idempotency_key: string
  readonly auto_save_count: number
  readonly event_id: string | null
  /** The master artist for portal drafts; null for public forms. */
  readonly subject_id: string | null
  readonly values: Values
  /** Epoch milliseconds. */
  readonly created_at: number
  readonly updated_at: number
  readonly submitted_at: number | null
  /** Increases on every write; submit commits only at the version that was validated. */
  readonly version: number
}
