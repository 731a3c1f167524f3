/** Migration 1: organisations, events and their registration data, form schemas with sections and fields. */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

// Foreign keys between fixture rows are deferred to commit, so a fixture loads in any order in one transaction.
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE TABLE organisations (
    id text PRIMARY KEY,
    name text NOT NULL
  )`
  yield* sql`CREATE TABLE events (
    id text PRIMARY KEY,
    organisation_id text NOT NULL REFERENCES organisations (id) DEFERRABLE INITIALLY DEFERRED,
    name text NOT NULL,
    parent_event_id text REFERENCES events (id) DEFERRABLE INITIALLY DEFERRED
  )`
  yield* sql`CREATE INDEX events_parent_idx ON events (parent_event_id)`
  yield* sql`CREATE TABLE event_sections (
    id text PRIMARY KEY,
    event_id text NOT NULL REFERENCES events (id) DEFERRABLE INITIALLY DEFERRED,
    name text NOT NULL,
    type text NOT NULL DEFAULT 'standard',
    show_in_registration boolean NOT NULL DEFAULT true,
    position double precision NOT NULL DEFAULT 0
  )`
  yield* sql`CREATE INDEX event_sections_event_idx ON event_sections (event_id)`
  // Proper date and time types: the database refuses 2027-02-30 or 25:00; read back with to_char.
  yield* sql`CREATE TABLE time_slots (
    id text PRIMARY KEY,
    event_id text NOT NULL REFERENCES events (id) DEFERRABLE INITIALLY DEFERRED,
    name text NOT NULL,
    date date NOT NULL,
    start_time time NOT NULL,
    end_time time NOT NULL
  )`
  yield* sql`CREATE INDEX time_slots_event_idx ON time_slots (event_id)`
  // Token uniqueness is deferred too, so a fixture may move a token from one schema to another.
  yield* sql`CREATE TABLE form_schemas (
    id text PRIMARY KEY,
    organisation_id text NOT NULL REFERENCES organisations (id) DEFERRABLE INITIALLY DEFERRED,
    event_id text REFERENCES events (id) DEFERRABLE INITIALLY DEFERRED,
    name text NOT NULL,
    type text NOT NULL,
    status text NOT NULL CHECK (status IN ('draft', 'published', 'archived')),
    public_token text,
    previous_public_token text,
    token_rotated_at timestamptz,
    opens_at timestamptz,
    closes_at timestamptz,
    tags jsonb NOT NULL DEFAULT '[]',
    revision text NOT NULL,
    CONSTRAINT form_schemas_public_token_key UNIQUE (public_token) DEFERRABLE INITIALLY DEFERRED,
    CONSTRAINT form_schemas_previous_public_token_key UNIQUE (previous_public_token) DEFERRABLE INITIALLY DEFERRED
  )`
  // At most one artist_advance schema per organisation (CONTRACT §10).
  yield* sql`CREATE UNIQUE INDEX form_schemas_one_advance_idx ON form_schemas (organisation_id)
    WHERE type = 'artist_advance'`
  yield* sql`CREATE TABLE form_sections (
    id text PRIMARY KEY,
    schema_id text NOT NULL REFERENCES form_schemas (id) ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED,
    name text NOT NULL,
    position double precision NOT NULL DEFAULT 0
  )`
  yield* sql`CREATE INDEX form_sections_schema_idx ON form_sections (schema_id)`
  yield* sql`CREATE TABLE form_fields (
    id text PRIMARY KEY,
    schema_id text NOT NULL REFERENCES form_schemas (id) ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED,
    section_id text REFERENCES form_sections (id) ON DELETE SET NULL DEFERRABLE INITIALLY DEFERRED,
    slug text NOT NULL,
    label text NOT NULL,
    type text NOT NULL,
    is_required boolean NOT NULL DEFAULT false,
    options jsonb,
    validation_rules jsonb,
    is_unique boolean NOT NULL DEFAULT false,
    position double precision NOT NULL DEFAULT 0,
    maps_to text,
    CONSTRAINT form_fields_slug_key UNIQUE (schema_id, slug) DEFERRABLE INITIALLY DEFERRED
  )`
})
