/** How an engagement's portal context (event, artist, advance sections, advance schema) is read in one statement. */
import { Effect, Schema } from "effect"
import { AdvanceSection, type PortalContext } from "@forms/domain"
import { ArtistAdvanceType } from "@forms/domain/internal"
import { FormSchemaRow, selectFormSchemas, withCancelUntil, withLanguages, withMessages } from "../forms/FormSchemaRow.js"
import { decodeRows } from "../sql/decodeRows.js"
import { epochMs } from "../sql/sqlValues.js"

export const AdvanceSectionRow = AdvanceSection

const ContextRow = Schema.Struct({
  id: Schema.String,
  organisation_id: Schema.String,
  master_artist_id: Schema.String,
  event: Schema.Struct({ id: Schema.String, name: Schema.String }),
  artist: Schema.Struct({ id: Schema.String, name: Schema.String, deleted_at: Schema.NullOr(Schema.Number) }),
  sections: Schema.Array(AdvanceSectionRow),
  advance_schema: Schema.NullOr(FormSchemaRow)
})

const decodeContexts = decodeRows(ContextRow)

/** Rows that do not decode are a bug of this adapter: they die. */
export const toPortalContexts = (rows: ReadonlyArray<unknown>): Effect.Effect<ReadonlyArray<PortalContext>> =>
  decodeContexts(rows).pipe(
    Effect.map((decoded) =>
      decoded.map(({ id, organisation_id, master_artist_id, event, artist, sections, advance_schema }): PortalContext => ({
        engagement: { id, organisation_id, event, master_artist_id },
        artist,
        sections,
        advance_schema: advance_schema === null ? null : withCancelUntil(withMessages(withLanguages(advance_schema)))
      }))
    )
  )

/** The advance section's columns, for a RETURNING or a SELECT on `advance_sections`. */
export const advanceSectionColumns = `id, name, position, status, ${epochMs("submitted_at")} AS submitted_at,
  ${epochMs("due_at")} AS due_at, ${epochMs("locks_at")} AS locks_at, locked AS lock_setting`

/**
 * The advance sections of engagement `en` as one json array (by position, then id in code units), each as
 * `AdvanceSectionRow` reads it; the alias `x` is taken.
 */
export const advanceSectionsJson = `COALESCE((SELECT json_agg(json_build_object('id', x.id, 'name', x.name, 'position', x.position,
                'status', x.status, 'submitted_at', ${epochMs("x.submitted_at")}, 'due_at', ${epochMs("x.due_at")},
                'locks_at', ${epochMs("x.locks_at")}, 'lock_setting', x.locked) ORDER BY x.position, x.id COLLATE "C")
              FROM advance_sections x WHERE x.engagement_id = en.id), '[]'::json)`

// One statement, so the context is one snapshot. The advance schema is the organisation's only one
// (a partial unique index), whatever its status or token. Sections by position then id (code units).
const advanceSchema = `${selectFormSchemas(`s.organisation_id = en.organisation_id AND s.type = '${ArtistAdvanceType}'`)}
  ORDER BY s.id COLLATE "C" LIMIT 1`

/** `SELECT` of portal contexts; `where` may use `en` (engagements). */
export const selectPortalContexts = (where: string): string => `
  SELECT en.id, en.organisation_id, en.master_artist_id,
    json_build_object('id', ev.id, 'name', ev.name) AS event,
    json_build_object('id', a.id, 'name', a.name, 'deleted_at', ${epochMs("a.deleted_at")}) AS artist,
    ${advanceSectionsJson} AS sections,
    (SELECT row_to_json(adv) FROM (${advanceSchema}) adv) AS advance_schema
  FROM engagements en
  JOIN events ev ON ev.id = en.event_id
  JOIN master_artists a ON a.id = en.master_artist_id
  WHERE ${where}`
