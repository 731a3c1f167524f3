/** The databases HTTP tests run on: the embedded PGlite always, real PostgreSQL when TEST_DATABASE_URL is set. */
import { describe, it } from "@effect/vitest"
import { type Backend, testDatabaseUrl } from "./harness.js"

export const backends: ReadonlyArray<Backend> = testDatabaseUrl === undefined ? ["embedded"] : ["embedded", "postgres"]

export const reportSkippedPostgres = (what: string) => {
  if (testDatabaseUrl === undefined) {
    describe(`${what} on PostgreSQL`, () => {
      it.skip("skipped: set TEST_DATABASE_URL (e.g. postgres://postgres@127.0.0.1:5432/forms_dev_http) to run", () => {})
    })
  }
}
