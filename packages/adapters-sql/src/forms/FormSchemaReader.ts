/**
 * Reads form schemas for the `FormSchemas` and `SchemaCatalog` ports. Every read fetches a thin row (id,
 * revision, status, tokens, dates, event…); the sections and fields, which change only with the revision,
 * are kept per (schema id, revision) in the process and read (with the whole schema, in one query) only when
 * that revision is not cached yet. Token rotations and status changes are therefore seen at once: they are
 * in the thin row. With a `FormSchemaCache` (kept exact by LISTEN, see `FormSchemaCache.ts`), the thin rows
 * themselves are kept too, and a read that hits them sends no query at all.
 */
import { Effect, Option } from "effect"
import type { SqlClient } from "effect/sql"
import type { SqlError } from "effect/sql/SqlError"
import type { FormSchema } from "@forms/domain"
import type { SchemaRowCache } from "./FormSchemaCache.js"
import { selectFormSchemas, toFormSchemas } from "./FormSchemaRow.js"
import { epochMs } from "../sql/sqlValues.js"

/** Which schema a read asks for: `$1` is its one parameter; `order` picks one row when several match. */
interface Lookup {
  /** Prefix of the parameter in the row cache's keys. */
  readonly name: string
  readonly where: string
  readonly order: string
}

// A current token wins over another schema's previous one (IS TRUE: a null public_token must not sort first).
export const byToken: Lookup = {
  name: "token",
  where: `s.public_token = $1 OR s.previous_public_token = $1`,
  order: `ORDER BY (s.public_token = $1) IS TRUE DESC`
}

export const byId: Lookup = { name: "id", where: `s.id = $1`, order: "" }

const selectThin = (lookup: Lookup): string => `
  SELECT s.id, s.organisation_id, s.revision, s.name, s.type, s.status, s.public_token, s.previous_public_token,
    ${epochMs("s.token_rotated_at")} AS token_rotated_at, ${epochMs("s.opens_at")} AS opens_at,
    ${epochMs("s.closes_at")} AS closes_at, s.tags, s.messages, s.cancel_until_hours, e.id AS event_id, e.name AS event_name,
    ${epochMs("s.created_at")} AS created_at
  FROM form_schemas s LEFT JOIN events e ON e.id = s.event_id
  WHERE ${lookup.where}
  ${lookup.order} LIMIT 1`

const selectFull = (lookup: Lookup): string => `SELECT full_row.*, ${epochMs("fs0.created_at")} AS created_at
  FROM (${selectFormSchemas(lookup.where)}
  ${lookup.order} LIMIT 1) full_row JOIN form_schemas fs0 ON fs0.id = full_row.id`

/** The schema without its definition, the event as two columns, the status unchecked (as the row has them). */
type ThinRow = Omit<FormSchema, "status" | "event" | "sections" | "fields" | "messages" | "languages" | "translations" | "cancel_until_hours"> & {
  readonly status: string
  /** Null: the default, 0 (CONTRACT §22). */
  readonly cancel_until_hours: number | null
  /** The `messages` column as written by a checked definition; null: none. */
  readonly messages: FormSchema["messages"] | null
  /** With the id and revision, the key of a cached definition: a form deleted and made again under its id starts at revision 1 again. */
  readonly created_at: number
  readonly event_id: string | null
  readonly event_name: string | null
}

type Definition = Pick<FormSchema, "sections" | "fields" | "languages" | "translations">

const isStatus = (status: string): status is FormSchema["status"] =>
  status === "draft" || status === "published" || status === "archived"

/** The thin row as a schema with `definition`; a row that does not fit is a bug of this adapter: it dies. */
const toFormSchema = (row: ThinRow, definition: Definition): FormSchema => {
  if (!isStatus(row.status) || !Array.isArray(row.tags)) {
    throw new Error(`form_schemas row ${row.id} does not decode`)
  }
  return {
    id: row.id,
    organisation_id: row.organisation_id,
    revision: row.revision,
    event: row.event_id === null ? null : { id: row.event_id, name: row.event_name ?? "" },
    name: row.name,
    type: row.type,
    status: row.status,
    public_token: row.public_token,
    previous_public_token: row.previous_public_token,
    token_rotated_at: row.token_rotated_at,
    opens_at: row.opens_at,
    closes_at: row.closes_at,
    tags: row.tags,
    sections: definition.sections,
    fields: definition.fields,
    ...(row.messages === null || row.messages === undefined ? {} : { messages: row.messages }),
    ...(definition.languages === undefined ? {} : { languages: definition.languages }),
    ...(definition.translations === undefined ? {} : { translations: definition.translations }),
    ...(row.cancel_until_hours === null || row.cancel_until_hours === undefined ? {} : { cancel_until_hours: row.cancel_until_hours })
  }
}

/** Definitions kept per `${id}:${revision}:${created_at}`, least recently used dropped past `maxEntries`. */
export const makeDefinitionCache = (maxEntries = 256) => {
  const entries = new Map<string, Definition>()
  return {
    get: (key: string): Definition | undefined => {
      const hit = entries.get(key)
      if (hit !== undefined) {
        entries.delete(key)
        entries.set(key, hit)
      }
      return hit
    },
    set: (key: string, definition: Definition): void => {
      entries.delete(key)
      if (entries.size >= maxEntries) {
        const oldest = entries.keys().next()
        if (oldest.done !== true) entries.delete(oldest.value)
      }
      entries.set(key, definition)
    },
    clear: (): void => entries.clear(),
    size: () => entries.size
  }
}

/** `read(lookup)(parameter)`: the schema, from a thin row and the cached definition of its revision. */
export const makeFormSchemaReader = (sql: SqlClient.SqlClient, rowCache?: SchemaRowCache) => {
  const cache = makeDefinitionCache()
  return (lookup: Lookup) => {
    const thin = selectThin(lookup)
    const full = selectFull(lookup)
    // A miss reads the whole schema in one query (as consistent as a single statement is) and caches its
    // definition under the revision that query saw.
    const readFull = (parameter: string) =>
      sql.unsafe<{ readonly created_at: number }>(full, [parameter]).pipe(
        Effect.flatMap((rows) =>
          Effect.map(toFormSchemas(rows), (schemas): Option.Option<FormSchema> => {
            const schema = schemas[0]
            const createdAt = rows[0]?.created_at
            if (schema === undefined) return Option.none()
            const { fields, languages, sections, translations } = schema
            cache.set(`${schema.id}:${schema.revision}:${createdAt}`, {
              sections,
              fields,
              ...(languages === undefined ? {} : { languages }),
              ...(translations === undefined ? {} : { translations })
            })
            return Option.some(schema)
          })
        )
      )
    const withDefinition = (row: ThinRow | undefined, parameter: string) => {
      if (row === undefined) return Effect.succeed(Option.none<FormSchema>())
      const definition = cache.get(`${row.id}:${row.revision}:${row.created_at}`)
      if (definition === undefined) return readFull(parameter)
      return Effect.sync(() => Option.some(toFormSchema(row, definition)))
    }
    const query = (parameter: string) => sql.unsafe<ThinRow>(thin, [parameter]).pipe(Effect.map((rows) => rows[0]))
    if (rowCache === undefined) {
      return (parameter: string): Effect.Effect<Option.Option<FormSchema>, SqlError> =>
        Effect.flatMap(query(parameter), (row) => withDefinition(row, parameter))
    }
    // A notification also forgets the definitions: a change to sections or fields made without a new
    // revision (by hand, not by the fixture loader) is seen too.
    let definitionsOf: number | null = null
    return (parameter: string): Effect.Effect<Option.Option<FormSchema>, SqlError> =>
      Effect.suspend(() => {
        const generation = rowCache.generation()
        if (generation !== null && generation !== definitionsOf) {
          cache.clear()
          definitionsOf = generation
        }
        const key = `${lookup.name}:${parameter}`
        const cached = rowCache.get(key) as ThinRow | undefined
        if (cached !== undefined) return withDefinition(cached, parameter)
        return Effect.flatMap(query(parameter), (row) => {
          // Unknown tokens are not kept: only schemas that exist take room. Kept rows are shared: frozen.
          if (row !== undefined) rowCache.store(key, Object.freeze({ ...row, tags: Object.freeze([...row.tags]) }), generation)
          return withDefinition(row, parameter)
        })
      })
  }
}
