/**
 * `Reminders` on PostgreSQL (or PGlite). A shift sweep is one short transaction: the scheduled reminders of slots
 * that have started are marked skipped, the due ones are read and held (`FOR UPDATE SKIP LOCKED`: racing sweeps take
 * disjoint rows), their messages recorded and the rows marked made. A section sweep holds the candidate sections
 * `FOR SHARE` (ordered with a section's submit and an organiser's change), and claims each reminder by inserting its
 * key: the primary key lets one sweep make it, the other's insert does nothing.
 */
import { type DueSectionReminder, type DueShiftReminder, type NewMessage, Reminders } from "@forms/domain"
import { Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { lockedAt } from "../portal/sectionLock.js"
import { decodeRows } from "../sql/decodeRows.js"
import { sqlFailure } from "../sql/SqlFailure.js"
import { epochMs, jsonText } from "../sql/sqlValues.js"
import { insertOwnedMessages, owned, type OwnedMessage } from "./ownedMessages.js"
import { SlotTextFields, slotTextColumns, slotTextJoins, slotTextOf } from "./slotText.js"

const DueShiftRow = Schema.Struct({
  submission_id: Schema.String,
  slot_id: Schema.String,
  hours_before: Schema.Number,
  to_address: Schema.String,
  organisation_id: Schema.String,
  form_name: Schema.String,
  ...SlotTextFields
})
const decodeDueShifts = decodeRows(DueShiftRow)

const DueSectionRow = Schema.Struct({
  engagement_id: Schema.String,
  organisation_id: Schema.String,
  section_id: Schema.String,
  section_name: Schema.String,
  event_name: Schema.String,
  artist_name: Schema.String,
  contact_email: Schema.String,
  due_at: Schema.Number,
  hours_before: Schema.Number
})
const decodeDueSections = decodeRows(DueSectionRow)

export const makeSqlReminders = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient

  const makeShiftRemindersDue = Effect.fn("SqlReminders.makeShiftRemindersDue")(
    (now: number, limit: number, compose: (due: DueShiftReminder) => NewMessage) =>
      sql.withTransaction(Effect.gen(function*() {
        const at = new Date(now)
        yield* sql`UPDATE shift_reminders r SET state = 'skipped', settled_at = ${at}::timestamptz
          FROM time_slots t WHERE t.id = r.slot_id AND r.state = 'scheduled' AND t.starts_at <= ${at}::timestamptz`
        const due = yield* sql`SELECT r.submission_id::text AS submission_id, r.slot_id, r.hours_before, r.to_address,
            f.organisation_id, f.name AS form_name, ${sql.literal(slotTextColumns)}
          FROM shift_reminders r
            JOIN time_slots t ON t.id = r.slot_id
            JOIN slot_places p ON p.submission_id = r.submission_id AND p.slot_id = r.slot_id AND p.status = 'confirmed'
            JOIN submissions s ON s.id = r.submission_id
            JOIN form_schemas f ON f.id = s.schema_id
            ${sql.literal(slotTextJoins)}
          WHERE r.state = 'scheduled' AND t.starts_at > ${at}::timestamptz
            AND t.starts_at - make_interval(hours => r.hours_before) <= ${at}::timestamptz
          ORDER BY t.starts_at, r.submission_id, r.slot_id, r.hours_before
          LIMIT ${Math.max(0, limit)}
          FOR UPDATE OF r SKIP LOCKED`.pipe(Effect.flatMap(decodeDueShifts))
        if (due.length === 0) return 0
        const made = due.map((row) => ({
          row,
          message: owned(
            { organisation_id: row.organisation_id, submission_id: row.submission_id, engagement_id: null },
            compose({
              submission_id: row.submission_id,
              slot_id: row.slot_id,
              hours_before: row.hours_before,
              to: row.to_address,
              form_name: row.form_name,
              slot: slotTextOf(row)
            })
          )
        }))
        yield* insertOwnedMessages(sql, made.map((m) => m.message), at)
        yield* sql`UPDATE shift_reminders r SET state = 'made', message_id = (m.made->>'message_id')::uuid,
            settled_at = ${at}::timestamptz
          FROM jsonb_array_elements(${
          jsonText(made.map(({ message, row }) => ({
            submission_id: row.submission_id,
            slot_id: row.slot_id,
            hours_before: row.hours_before,
            message_id: message.id
          })))
        }::jsonb) AS m (made)
          WHERE r.submission_id = (m.made->>'submission_id')::uuid AND r.slot_id = m.made->>'slot_id'
            AND r.hours_before = (m.made->>'hours_before')::integer AND r.state = 'scheduled'`
        return made.length
      })),
    Effect.catchTag("SqlError", sqlFailure)
  )

  const makeSectionRemindersDue = Effect.fn("SqlReminders.makeSectionRemindersDue")(
    (now: number, hours: ReadonlyArray<number>, limit: number, compose: (due: DueSectionReminder) => NewMessage) =>
      sql.withTransaction(Effect.gen(function*() {
        const at = new Date(now)
        const candidates = yield* sql`SELECT en.id AS engagement_id, en.organisation_id, s.id AS section_id,
            s.name AS section_name, ev.name AS event_name, ma.name AS artist_name, en.contact_email,
            ${sql.literal(epochMs("s.due_at"))} AS due_at, h.hours AS hours_before
          FROM advance_sections s
            JOIN engagements en ON en.id = s.engagement_id
            JOIN events ev ON ev.id = en.event_id
            JOIN master_artists ma ON ma.id = en.master_artist_id
            CROSS JOIN unnest(${[...hours]}::int[]) AS h (hours)
          WHERE s.status = 'pending' AND s.due_at IS NOT NULL AND en.contact_email IS NOT NULL
            AND s.due_at > ${at}::timestamptz
            AND s.due_at - make_interval(hours => h.hours) <= ${at}::timestamptz
            AND s.due_at - make_interval(hours => h.hours) > COALESCE(s.due_set_at, '-infinity'::timestamptz)
            AND NOT ${lockedAt(sql, "s", at)}
            AND NOT EXISTS (SELECT 1 FROM section_reminders r
              WHERE r.section_id = s.id AND r.due_at = s.due_at AND r.hours_before = h.hours)
          ORDER BY s.due_at, s.id, h.hours
          LIMIT ${Math.max(0, limit)}
          FOR SHARE OF s`.pipe(Effect.flatMap(decodeDueSections))
        if (candidates.length === 0) return 0
        // Several moments of one section due at once (after a pause): one message, the nearest the due date.
        const nearest = new Map<string, (typeof candidates)[number]>()
        for (const row of candidates) {
          const seen = nearest.get(row.section_id)
          if (seen === undefined || row.hours_before < seen.hours_before) nearest.set(row.section_id, row)
        }
        const messages = new Map<string, OwnedMessage>()
        for (const [sectionId, row] of nearest) {
          messages.set(sectionId, owned(
            { organisation_id: row.organisation_id, submission_id: null, engagement_id: row.engagement_id },
            compose({
              engagement_id: row.engagement_id,
              section_id: row.section_id,
              section_name: row.section_name,
              event_name: row.event_name,
              artist_name: row.artist_name,
              to: row.contact_email,
              due_at: row.due_at,
              hours_before: row.hours_before
            })
          ))
        }
        const claimed = yield* sql<{ readonly section_id: string; readonly hours_before: number }>`
          INSERT INTO section_reminders (section_id, due_at, hours_before, message_id, made_at)
          SELECT c.item->>'section_id', to_timestamp((c.item->>'due_at')::float8 / 1000), (c.item->>'hours_before')::integer,
            (c.item->>'message_id')::uuid, ${at}::timestamptz
          FROM jsonb_array_elements(${
          jsonText(candidates.map((row) => {
            const message = messages.get(row.section_id)
            const carries = nearest.get(row.section_id) === row
            return {
              section_id: row.section_id,
              due_at: row.due_at,
              hours_before: row.hours_before,
              message_id: carries && message !== undefined ? message.id : null
            }
          }))
        }::jsonb) AS c (item)
          ON CONFLICT DO NOTHING
          RETURNING section_id, hours_before`
        const won = new Set(claimed.map((c) => `${c.section_id}\u0000${c.hours_before}`))
        const recorded = [...nearest].filter(([sectionId, row]) => won.has(`${sectionId}\u0000${row.hours_before}`))
          .flatMap(([sectionId]) => {
            const message = messages.get(sectionId)
            return message === undefined ? [] : [message]
          })
        if (recorded.length > 0) yield* insertOwnedMessages(sql, recorded, at)
        return recorded.length
      })),
    Effect.catchTag("SqlError", sqlFailure)
  )

  return Reminders.of({ makeShiftRemindersDue, makeSectionRemindersDue })
})

export const SqlReminders = {
  layer: Layer.effect(Reminders, makeSqlReminders)
} as const
