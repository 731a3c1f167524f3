/** A schema of its own on TEST_DATABASE_URL for one test file, with the reference's tables (PostgreSQL tests). */
import { randomUUID } from "node:crypto"
import postgres from "postgres"
import { createReferenceSchema } from "./schema.js"

export const testDatabaseUrl = process.env["TEST_DATABASE_URL"]

export const openTestSchema = async () => {
  const schema = `bench_test_${randomUUID().replace(/-/g, "").slice(0, 12)}`
  const admin = postgres(testDatabaseUrl ?? "", { max: 1, onnotice: () => {} })
  await admin.unsafe(`CREATE SCHEMA ${schema}`)
  const sql = postgres(testDatabaseUrl ?? "", { max: 20, onnotice: () => {}, connection: { search_path: schema } })
  await createReferenceSchema(sql)
  return {
    sql,
    close: async () => {
      await sql.end({ timeout: 5 })
      await admin.unsafe(`DROP SCHEMA ${schema} CASCADE`)
      await admin.end({ timeout: 5 })
    }
  }
}
