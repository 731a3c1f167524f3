/**
 * The thin rows of form schemas (by token and by id), kept in the process while a LISTEN connection
 * confirms that every change reaches it: triggers of migration 5 NOTIFY `forms_schemas` on any change to
 * `form_schemas`, `form_sections`, `form_fields` or `events`, and each notification empties the cache.
 * Without a listener (the connection dropped, not yet open, or the embedded database), nothing is cached
 * and every read goes to the database, as the readers do when no cache is provided at all.
 *
 * A change is seen once its notification arrives (a millisecond or so after its commit): as if the
 * request had read the row just before the commit, which a request without the cache can do too.
 */
import { Context, Effect, Layer } from "effect"
import { listenScoped, type PgListenerOptions } from "../connection/PgListener.js"

export const schemaChannel = "forms_schemas"

/**
 * The cache's state. A read that misses takes `generation()` before querying and passes it to `store`:
 * a row read before an invalidation that arrives while the query runs is not stored.
 */
export interface SchemaRowCache {
  readonly get: (key: string) => unknown
  /** The current generation, or null while nothing may be cached. */
  readonly generation: () => number | null
  readonly store: (key: string, row: unknown, generation: number | null) => void
  /** Forgets everything; rows being read now will not be stored. */
  readonly invalidate: () => void
  /** Caching on (a listener is in place) or off (and empty). */
  readonly setListening: (listening: boolean) => void
  readonly stats: () => { readonly hits: number; readonly misses: number; readonly size: number }
}

export const makeSchemaRowCache = (maxEntries = 1_024): SchemaRowCache => {
  const rows = new Map<string, unknown>()
  let generation = 0
  let listening = false
  let hits = 0
  let misses = 0
  const invalidate = () => {
    rows.clear()
    generation++
  }
  return {
    get: (key) => {
      const row = listening ? rows.get(key) : undefined
      if (row === undefined) misses++
      else hits++
      return row
    },
    generation: () => (listening ? generation : null),
    store: (key, row, readAt) => {
      if (!listening || readAt !== generation) return
      // Only known schemas are stored (a few keys each), so this bound is never reached in practice.
      if (rows.size >= maxEntries) rows.clear()
      rows.set(key, row)
    },
    invalidate,
    setListening: (on) => {
      invalidate()
      listening = on
    },
    stats: () => ({ hits, misses, size: rows.size })
  }
}

export interface FormSchemaCacheOptions extends Omit<PgListenerOptions, "applicationName"> {
  /** The listening session's `application_name`; default `forms-portal-schemas`. */
  readonly applicationName?: string | undefined
}

export class FormSchemaCache extends Context.Service<FormSchemaCache, SchemaRowCache>()(
  "@forms/adapters-sql/FormSchemaCache"
) {
  /**
   * A cache kept exact by LISTEN on `forms_schemas` (a real server, with `DATABASE_URL`). The build waits
   * for the first LISTEN (or the first failure to connect); a dropped connection turns caching off until a
   * new LISTEN is in place.
   */
  static readonly listening = (options: FormSchemaCacheOptions): Layer.Layer<FormSchemaCache> =>
    Layer.effect(
      FormSchemaCache,
      Effect.gen(function*() {
        const cache = makeSchemaRowCache()
        yield* listenScoped(
          { ...options, applicationName: options.applicationName ?? "forms-portal-schemas" },
          schemaChannel,
          {
            onListening: Effect.sync(() => cache.setListening(true)),
            onDropped: Effect.sync(() => cache.setListening(false)),
            onNotification: Effect.sync(cache.invalidate)
          }
        )
        return cache
      })
    )
}
