/**
 * A submission's places as JSON (CONTRACT §22), for the organiser's rows: by slot id, a waiting place of a slot that
 * has started `expired`, a waiting place's `position` its rank among the waiting places of its slot (the waitlist's
 * index). Null when the form has no `time_slots` field (no `places` member then).
 */
import type { SubmissionPlace } from "@forms/domain"

/** Over `submissions s`. */
export const submissionPlacesColumn = `CASE WHEN EXISTS (SELECT 1 FROM form_fields ff
    WHERE ff.schema_id = s.schema_id AND ff.type = 'time_slots') THEN COALESCE((
  SELECT json_agg(json_build_object('slot_id', p.slot_id,
      'status', CASE WHEN p.status = 'waitlisted' AND t.starts_at <= now() THEN 'expired' ELSE p.status END,
      'position', CASE WHEN p.status = 'waitlisted' AND t.starts_at > now() THEN (SELECT count(*)::int FROM slot_places w
        WHERE w.slot_id = p.slot_id AND w.status = 'waitlisted' AND w.joined <= p.joined) END)
    ORDER BY p.slot_id COLLATE "C")
  FROM slot_places p JOIN time_slots t ON t.id = p.slot_id WHERE p.submission_id = s.id), '[]'::json) END`

const statuses = new Set(["confirmed", "waitlisted", "expired"])

/** The column's value; anything else is a bug of this adapter (it throws: a defect). */
export const toSubmissionPlaces = (raw: unknown): ReadonlyArray<SubmissionPlace> => {
  const list = typeof raw === "string" ? JSON.parse(raw) as unknown : raw
  if (!Array.isArray(list)) throw new Error("places do not decode")
  return list.map((item: { slot_id?: unknown; status?: unknown; position?: unknown }): SubmissionPlace => {
    if (typeof item.slot_id !== "string" || typeof item.status !== "string" || !statuses.has(item.status)) {
      throw new Error("a place does not decode")
    }
    return {
      slot_id: item.slot_id,
      status: item.status as SubmissionPlace["status"],
      position: typeof item.position === "number" ? item.position : null
    }
  })
}
