/** The records of "Submissions out" (CONTRACT §12): submissions as the organiser sees them, contacts, outbox entries. */
import type { Values } from "../forms/Values.js"
import type { CreatedKey } from "../shared/paging.js"

/** A submission (§2) with its form, tags and contact. Values are shown as stored, dropped slugs included. */
export interface AdminSubmission {
  readonly id: string
  readonly form_id: string
  readonly status: "draft" | "submitted"
  readonly idempotency_key: string
  readonly auto_save_count: number
  readonly event_id: string | null
  readonly values: Values
  /** Sorted, no duplicates. */
  readonly tags: ReadonlyArray<string>
  readonly contact_id: string | null
  /** Epoch ms. */
  readonly created_at: number
  readonly updated_at: number
  readonly submitted_at: number | null
}

/** `?status=` and `?since=` (epoch ms; keeps `updated_at >= since`). */
export interface SubmissionFilter {
  readonly status: "draft" | "submitted" | undefined
  readonly since: number | undefined
}

export const submissionKeyOf = (s: AdminSubmission): CreatedKey => ({ created_at: s.created_at, id: s.id })

export interface AdminContact {
  readonly id: string
  /** An email lower-cased, or a phone's digits. */
  readonly key: string
  readonly tags: ReadonlyArray<string>
  /** Oldest first. */
  readonly submission_ids: ReadonlyArray<string>
  readonly created_at: number
}

export const contactKeyOf = (c: AdminContact): CreatedKey => ({ created_at: c.created_at, id: c.id })

export type OutboxState = "dead" | "pending" | "delivered"

/** An outbox event as listed: never its payload. */
export interface OutboxEntry {
  readonly id: string
  readonly type: string
  readonly attempts: number
  readonly last_error: string | null
  readonly created_at: number
  readonly available_at: number
  readonly dead_at: number | null
}

export const outboxKeyOf = (e: OutboxEntry): CreatedKey => ({ created_at: e.created_at, id: e.id })

/** The columns of an export: the slugs of the form's current fields, in the order of §12. */
export interface ExportColumns {
  readonly slugs: ReadonlyArray<string>
}

/** What one retention sweep did; `ran` is false when another process held the sweep. */
export interface SweepResult {
  readonly ran: boolean
  readonly drafts_deleted: number
  readonly payloads_emptied: number
}

/**
 * What erasure leaves of an outbox payload (the convention the webhook engine relies on): its ids only
 * (string members named `id` or ending in `_id`) and `erased: true`. No value, no time, nothing submitted.
 */
export const erasedPayload = (payload: Readonly<Record<string, unknown>>): Record<string, unknown> => {
  const out: Record<string, unknown> = Object.create(null) as Record<string, unknown>
  for (const [key, value] of Object.entries(payload)) {
    if ((key === "id" || key.endsWith("_id")) && typeof value === "string") out[key] = value
  }
  out["erased"] = true
  return out
}
