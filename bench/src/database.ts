/** The bench's own databases on the admin server: created fresh, emptied between runs, dropped at the end. */
import postgres from "postgres"

export const adminUrl = (): string =>
  process.env["TEST_DATABASE_URL"] ?? "postgres://postgres@127.0.0.1:5432/postgres"

/** The same server and credentials, another database. */
export const databaseUrl = (admin: string, name: string): string => {
  const url = new URL(admin)
  url.pathname = `/${name}`
  return url.toString()
}

const quoteIdent = (name: string): string => {
  if (!/^forms_bench_[a-z0-9_]+$/.test(name)) throw new Error(`refusing a database name outside forms_bench_*: ${name}`)
  return `"${name}"`
}

const withAdmin = async <A>(f: (sql: postgres.Sql) => Promise<A>): Promise<A> => {
  const sql = postgres(adminUrl(), { max: 1, onnotice: () => {} })
  try {
    return await f(sql)
  } finally {
    await sql.end({ timeout: 5 })
  }
}

export const createDatabase = (name: string): Promise<void> =>
  withAdmin(async (sql) => {
    await sql.unsafe(`DROP DATABASE IF EXISTS ${quoteIdent(name)} WITH (FORCE)`)
    await sql.unsafe(`CREATE DATABASE ${quoteIdent(name)}`)
  })

export const dropDatabase = (name: string): Promise<void> =>
  withAdmin(async (sql) => {
    await sql.unsafe(`DROP DATABASE IF EXISTS ${quoteIdent(name)} WITH (FORCE)`)
  })

/** Tables a flow writes (those of ours and of the reference; missing ones are skipped). */
const writtenTables = ["unique_claims", "outbox", "rate_limit_hits", "rate_limits", "submissions", "contacts"]

/** Empties what the flows wrote, so each run starts from the same state (the forms stay). */
export const truncateWritten = async (url: string): Promise<void> => {
  const sql = postgres(url, { max: 1, onnotice: () => {} })
  try {
    const rows = await sql<Array<{ name: string }>>`
      SELECT table_name AS name FROM information_schema.tables
      WHERE table_schema = current_schema() AND table_name = ANY(${writtenTables})`
    if (rows.length > 0) {
      await sql.unsafe(`TRUNCATE ${rows.map((r) => `"${r.name}"`).join(", ")} RESTART IDENTITY CASCADE`)
    }
    // Fresh statistics after the mass delete, as a long-running server would have after autovacuum.
    await sql.unsafe("VACUUM ANALYZE")
  } finally {
    await sql.end({ timeout: 5 })
  }
}

/** What a run left in its database: submitted submissions, events, contacts, limiter keys. */
export interface RunRows {
  readonly submitted: number
  /** Outbox events delivered / still undelivered (the lean reference delivers none). */
  readonly delivered: number
  readonly pending: number
  readonly contacts: number
  /** Distinct keys the client limits counted: ours' `rate_limit_hits`, the reference's `rate_limits` (a row per key). */
  readonly limiterKeys: number
}

/**
 * Read after the server stopped: every counted flow must have stored a submitted submission, and with
 * visitors each flow counts under keys of its own (about 2 per flow: write and submit).
 */
export const countRows = async (url: string): Promise<RunRows> => {
  const sql = postgres(url, { max: 1, onnotice: () => {} })
  try {
    const tables = new Set((await sql<Array<{ name: string }>>`
      SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema()`).map((r) => r.name))
    const count = async (query: string): Promise<number> => Number((await sql.unsafe(query))[0]?.["n"] ?? 0)
    const limiterKeys = (tables.has("rate_limit_hits") ? await count("SELECT count(DISTINCT key)::int AS n FROM rate_limit_hits") : 0) +
      (tables.has("rate_limits") ? await count("SELECT count(*)::int AS n FROM rate_limits") : 0)
    return {
      submitted: await count("SELECT count(*)::int AS n FROM submissions WHERE status = 'submitted'"),
      delivered: await count("SELECT count(*)::int AS n FROM outbox WHERE delivered_at IS NOT NULL"),
      pending: await count("SELECT count(*)::int AS n FROM outbox WHERE delivered_at IS NULL"),
      contacts: tables.has("contacts") ? await count("SELECT count(*)::int AS n FROM contacts") : 0,
      limiterKeys
    }
  } finally {
    await sql.end({ timeout: 5 })
  }
}

/** Outbox events still to deliver (neither delivered nor dead). */
export const pendingEvents = async (url: string): Promise<number> => {
  const sql = postgres(url, { max: 1, onnotice: () => {} })
  try {
    // Ours parks an event that keeps failing (dead_at); the reference has no such column.
    const [parks] = await sql<Array<{ n: number }>>`
      SELECT count(*)::int AS n FROM information_schema.columns
      WHERE table_schema = current_schema() AND table_name = 'outbox' AND column_name = 'dead_at'`
    const [row] = (parks?.n ?? 0) > 0
      ? await sql<Array<{ n: number }>>`SELECT count(*)::int AS n FROM outbox WHERE delivered_at IS NULL AND dead_at IS NULL`
      : await sql<Array<{ n: number }>>`SELECT count(*)::int AS n FROM outbox WHERE delivered_at IS NULL`
    return row?.n ?? 0
  } finally {
    await sql.end({ timeout: 5 })
  }
}
