/** Where an in-process test server keeps its data: a fresh database on TEST_DATABASE_URL's server, else PGlite. */
import { createDatabase, dropDatabase, uniqueDatabaseName } from "./sql.js"
import { testDatabaseUrl } from "./paths.js"

export interface Backend {
  readonly label: string
  /** Unset: the embedded PGlite, in memory. */
  readonly url: string | undefined
  readonly release: () => Promise<void>
}

export const makeBackend = async (what: string): Promise<Backend> => {
  const server = testDatabaseUrl
  if (server === undefined) {
    return { label: "embedded PGlite (set TEST_DATABASE_URL to run on PostgreSQL)", url: undefined, release: async () => {} }
  }
  const name = uniqueDatabaseName(what)
  const url = await createDatabase(server, name)
  return { label: `PostgreSQL database ${name}`, url, release: () => dropDatabase(server, name) }
}
