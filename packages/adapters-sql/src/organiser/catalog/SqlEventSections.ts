/**
 * The event-section methods of the `OrganiserCatalog` port on PostgreSQL: an event's sections, scoped through
 * their event's organisation, each write one transaction with its audit entry.
 */
import { Effect, Option } from "effect"
import type { SqlClient } from "effect/sql"
import { type Actor, type AdminEventSection, EventNotFound, EventSectionNotFound, type OrganiserCatalog } from "@forms/domain"
import { appendAudit } from "../../sql/appendAudit.js"
import { decodeRows } from "../../sql/decodeRows.js"
import { toPage } from "../../sql/paging.js"
import { sqlFailure } from "../../sql/SqlFailure.js"
import { EventSectionRow } from "../../shifts/registrationRows.js"
import { eventExists } from "./eventRows.js"

/** Over `event_sections s`. */
const sectionColumns = "s.id, s.event_id, s.name, s.type, s.show_in_registration, s.position"
const decodeSections = decodeRows(EventSectionRow)

type EventSectionMethods = Pick<
  OrganiserCatalog["Service"],
  "listEventSections" | "findEventSection" | "createEventSection" | "updateEventSection" | "deleteEventSection"
>

export const makeEventSectionMethods = (sql: SqlClient.SqlClient): EventSectionMethods => {
  const sectionCols = sql.literal(sectionColumns)

  /** With `lock: "FOR UPDATE"` (inside an update or a delete), the section's row is locked until the transaction ends. */
  const selectSection = (organisationId: string, id: string, options: { readonly lock?: "FOR UPDATE" } = {}) =>
    sql`SELECT ${sectionCols} FROM event_sections s JOIN events e ON e.id = s.event_id
      WHERE s.id = ${id} AND e.organisation_id = ${organisationId} ${sql.literal(options.lock === undefined ? "" : "FOR UPDATE OF s")}`.pipe(
      Effect.flatMap(decodeSections),
      Effect.map((rows): Option.Option<AdminEventSection> => Option.fromUndefinedOr(rows[0]))
    )

  const audit = (actor: Actor, at: number, action: string, id: string) =>
    appendAudit(sql, actor, at, { action, resource_type: "event_section", resource_id: id })

  return {
    listEventSections: Effect.fn("SqlOrganiserCatalog.listEventSections")(
      function*(organisationId, eventId, page) {
        if (!(yield* eventExists(sql, organisationId, eventId))) return yield* new EventNotFound()
        const a = page.after
        const rows = yield* sql`SELECT ${sectionCols} FROM event_sections s
          WHERE s.event_id = ${eventId}
          AND (${a === undefined} OR (s.position, s.name COLLATE "C", s.id COLLATE "C")
            > (${a?.position ?? null}::float8, ${a?.name ?? null}::text COLLATE "C", ${a?.id ?? null}::text COLLATE "C"))
          ORDER BY s.position, s.name COLLATE "C", s.id COLLATE "C" LIMIT ${page.limit + 1}`.pipe(
          Effect.flatMap(decodeSections)
        )
        return toPage(rows, page.limit)
      },
      Effect.catchTag("SqlError", sqlFailure)
    ),
    findEventSection: Effect.fn("SqlOrganiserCatalog.findEventSection")(
      (organisationId, id) => selectSection(organisationId, id),
      Effect.catchTag("SqlError", sqlFailure)
    ),
    createEventSection: Effect.fn("SqlOrganiserCatalog.createEventSection")(
      (actor, eventId, input, at) =>
        sql.withTransaction(Effect.gen(function*() {
          if (!(yield* eventExists(sql, actor.organisation_id, eventId, { lock: "FOR SHARE" }))) return yield* new EventNotFound()
          const rows = yield* sql`INSERT INTO event_sections AS s (id, event_id, name, type, show_in_registration, position)
            VALUES (gen_random_uuid()::text, ${eventId}, ${input.name}, ${input.type}, ${input.show_in_registration},
                    ${input.position}) RETURNING ${sectionCols}`.pipe(Effect.flatMap(decodeSections))
          const section = rows[0]
          if (section === undefined) return yield* Effect.die("the insert returned no row")
          yield* audit(actor, at, "event_section.created", section.id)
          return section
        })),
      Effect.catchTag("SqlError", sqlFailure)
    ),
    updateEventSection: Effect.fn("SqlOrganiserCatalog.updateEventSection")(
      (actor, id, patch, at) =>
        sql.withTransaction(Effect.gen(function*() {
          const found = yield* selectSection(actor.organisation_id, id, { lock: "FOR UPDATE" })
          if (Option.isNone(found)) return yield* new EventSectionNotFound()
          const next = { ...found.value, ...patch }
          const rows = yield* sql`UPDATE event_sections AS s SET name = ${next.name}, type = ${next.type},
            show_in_registration = ${next.show_in_registration}, position = ${next.position}
            WHERE s.id = ${id} RETURNING ${sectionCols}`.pipe(Effect.flatMap(decodeSections))
          yield* audit(actor, at, "event_section.updated", id)
          return rows[0] ?? next
        })),
      Effect.catchTag("SqlError", sqlFailure)
    ),
    deleteEventSection: Effect.fn("SqlOrganiserCatalog.deleteEventSection")(
      (actor, id, at) =>
        sql.withTransaction(Effect.gen(function*() {
          if (Option.isNone(yield* selectSection(actor.organisation_id, id, { lock: "FOR UPDATE" }))) {
            return yield* new EventSectionNotFound()
          }
          yield* sql`DELETE FROM event_sections WHERE id = ${id}`
          yield* audit(actor, at, "event_section.deleted", id)
        })),
      Effect.catchTag("SqlError", sqlFailure)
    )
  }
}
