/**
 * The thin rows of form schemas (by token and by id), kept in the process while a LISTEN connection confirms
 * that every change reaches it. How it stays exact, and what bounds a missed notification: the package
 * README, "Form schemas" (the one place this story is told).
 */
import { Context, Effect, Layer } from "effect"
import { listenScoped, type ListenerOptions } from "../connection/PgListener.js"

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
  /** Forgets everything (the readers then forget their sections and fields too); rows being read now will not be stored. */
  readonly invalidate: () => void
  /** Caching on (a listener is in place) or off (and empty). */
  readonly setListening: (listening: boolean) => void
  readonly stats: () => { readonly hits: number; readonly misses: number; readonly size: number }
}

export interface SchemaRowCacheOptions {
  readonly maxEntries?: number
  /** How long a row is kept even when no notification forgets it; default 2 seconds. */
  readonly maxAgeMs?: number
  readonly now?: () => number
}

export const makeSchemaRowCache = (options: SchemaRowCacheOptions = {}): SchemaRowCache => {
  const maxEntries = options.maxEntries ?? 1_024
  const maxAgeMs = options.maxAgeMs ?? 2_000
  const now = options.now ?? Date.now
  const rows = new Map<string, { readonly row: unknown; readonly at: number }>()
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
      const entry = listening ? rows.get(key) : undefined
      if (entry === undefined || now() - entry.at > maxAgeMs) {
        misses++
        return undefined
      }
      hits++
      return entry.row
    },
    generation: () => (listening ? generation : null),
    store: (key, row, readAt) => {
      if (!listening || readAt !== generation) return
      // Only known schemas are stored (a few keys each), so this bound is never reached in practice.
      if (rows.size >= maxEntries) rows.clear()
      rows.set(key, { row, at: now() })
    },
    invalidate,
    setListening: (on) => {
      invalidate()
      listening = on
    },
    stats: () => ({ hits, misses, size: rows.size })
  }
}

/** `applicationName` defaults to `forms-portal-schemas`. */
export type FormSchemaCacheOptions = ListenerOptions

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
