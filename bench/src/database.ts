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
const writtenTables = ["unique_claims", "outbox", "rate_limit_hits", "submissions", "contacts"]

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

/** Rows left by a run, to check that every counted flow really stored a submitted submission. */
export const countSubmitted = async (url: string): Promise<number> => {
  const sql = postgres(url, { max: 1, onnotice: () => {} })
  try {
    const [row] = await sql<Array<{ n: number }>>`SELECT count(*)::int AS n FROM submissions WHERE status = 'submitted'`
    return row?.n ?? 0
  } finally {
    await sql.end({ timeout: 5 })
  }
}
