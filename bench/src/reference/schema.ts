/**
 * The reference server's own minimal schema: one row per form with its field definitions as jsonb
 * (read on every request, as ours reads its schema on every request), and the same submission,
 * claim, outbox and contact tables as ours, with the same keys and indexes; the limiter's own table
 * (limiter.ts), and ours' `rate_limit_hits` for the mirror mode's limiter.
 */
import type { Sql } from "postgres"
import { limiterTableSql } from "./limiter.js"

export const createReferenceSchema = async (sql: Sql): Promise<void> => {
  await sql.unsafe(`
    CREATE TABLE IF NOT EXISTS form_schemas (
      id text PRIMARY KEY,
      organisation_id text NOT NULL,
      event_id text,
      event_name text,
      name text NOT NULL,
      type text NOT NULL,
      status text NOT NULL,
      public_token text UNIQUE,
      previous_public_token text UNIQUE,
      token_rotated_at timestamptz,
      opens_at timestamptz,
      closes_at timestamptz,
      tags jsonb NOT NULL DEFAULT '[]',
      fields jsonb NOT NULL
    );
    CREATE TABLE IF NOT EXISTS contacts (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      organisation_id text NOT NULL,
      key text NOT NULL,
      tags jsonb NOT NULL DEFAULT '[]',
      CONSTRAINT contacts_key UNIQUE (organisation_id, key)
    );
    CREATE TABLE IF NOT EXISTS submissions (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      schema_id text NOT NULL REFERENCES form_schemas (id),
      idempotency_key text NOT NULL,
      status text NOT NULL DEFAULT 'draft' CHECK (status IN ('draft', 'submitted')),
      values jsonb NOT NULL DEFAULT '{}',
      auto_save_count integer NOT NULL DEFAULT 0,
      version integer NOT NULL DEFAULT 1,
      event_id text,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      submitted_at timestamptz,
      tags jsonb NOT NULL DEFAULT '[]',
      contact_id uuid REFERENCES contacts (id),
      CONSTRAINT submissions_idempotency_key UNIQUE (schema_id, idempotency_key)
    );
    CREATE TABLE IF NOT EXISTS unique_claims (
      schema_id text NOT NULL REFERENCES form_schemas (id),
      field_slug text NOT NULL,
      normalized_value text NOT NULL,
      submission_id uuid NOT NULL REFERENCES submissions (id),
      PRIMARY KEY (schema_id, field_slug, normalized_value)
    );
    CREATE TABLE IF NOT EXISTS outbox (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      seq bigint GENERATED ALWAYS AS IDENTITY,
      type text NOT NULL,
      payload jsonb NOT NULL,
      attempts integer NOT NULL DEFAULT 0,
      available_at timestamptz NOT NULL,
      delivered_at timestamptz,
      dead_at timestamptz,
      last_error text,
      created_at timestamptz NOT NULL
    );
    CREATE INDEX IF NOT EXISTS outbox_due_idx ON outbox (available_at, seq) WHERE delivered_at IS NULL AND dead_at IS NULL;
    CREATE TABLE IF NOT EXISTS rate_limit_hits (
      id bigserial PRIMARY KEY,
      key text NOT NULL,
      at bigint NOT NULL,
      expires_at bigint NOT NULL
    );
    CREATE INDEX IF NOT EXISTS rate_limit_hits_key_idx ON rate_limit_hits (key, at);
    CREATE INDEX IF NOT EXISTS rate_limit_hits_expires_idx ON rate_limit_hits (expires_at);
    CREATE INDEX IF NOT EXISTS submissions_contact_idx ON submissions (contact_id);
    ${limiterTableSql}
  `)
}

interface FixtureEvent {
  readonly id: string
  readonly name: string
}
interface FixtureSchema {
  readonly id: string
  readonly organisation_id: string
  readonly event_id: string | null
  readonly name: string
  readonly type: string
  readonly status: string
  readonly public_token: string | null
  readonly tags: ReadonlyArray<string>
  readonly fields: ReadonlyArray<unknown>
}
export interface BenchFixture {
  readonly events: ReadonlyArray<FixtureEvent>
  readonly form_schemas: ReadonlyArray<FixtureSchema>
}

/** Upserts the bench fixture's forms (the reference knows nothing else of the fixture). */
export const loadReferenceFixture = async (sql: Sql, fixture: BenchFixture): Promise<void> => {
  for (const schema of fixture.form_schemas) {
    const event = fixture.events.find((e) => e.id === schema.event_id)
    await sql`
      INSERT INTO form_schemas (id, organisation_id, event_id, event_name, name, type, status, public_token, tags, fields)
      VALUES (${schema.id}, ${schema.organisation_id}, ${schema.event_id}, ${event?.name ?? null}, ${schema.name},
              ${schema.type}, ${schema.status}, ${schema.public_token}, ${JSON.stringify(schema.tags)}::text::jsonb,
              ${JSON.stringify(schema.fields)}::text::jsonb)
      ON CONFLICT (id) DO UPDATE SET fields = EXCLUDED.fields, status = EXCLUDED.status,
        public_token = EXCLUDED.public_token, tags = EXCLUDED.tags`
  }
}

/** The tables the bench empties between runs, on both databases. */
export const mutableTables = ["unique_claims", "outbox", "rate_limit_hits", "rate_limit_windows", "submissions", "contacts"] as const
