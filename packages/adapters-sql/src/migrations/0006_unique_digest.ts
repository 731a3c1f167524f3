/**
 * Migration 6: unique claims keyed by the SHA-256 of the normalised value instead of the value itself
 * (PostgreSQL refuses index rows over 2,704 bytes, so a long unique value failed the submit with a 500),
 * and the claims made before it re-keyed with CONTRACT §4's comparison of numbers (by value) and phones
 * (by digits alone).
 *
 * The new key is a function of the old one (which was the trimmed text, `String(n)` for a JSON number,
 * or the sorted JSON list of an array's item texts), so it is computed from `normalized_value` alone,
 * here in SQL, in the migration's transaction: no process ever sees a half re-keyed table. The two
 * functions below are the domain's `numericKey` and `phoneKey` (packages/domain/src/rules/uniqueKey.ts)
 * in SQL; test/uniqueDigestMigration.ts checks that they agree. The field's type is its type now (a claim
 * of a field that no longer exists keeps its text key). Claims that become one key (`12` and `12.0`
 * claimed by two submissions before) keep the earliest submitted one: either blocks the value alike.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE unique_claims ADD COLUMN value_digest bytea`
  // numericKey: [-]<digits without leading or trailing zeros>e<exponent>, or '0'; other text unchanged.
  yield* sql`CREATE FUNCTION forms_0006_numeric_key(t text) RETURNS text
    LANGUAGE plpgsql IMMUTABLE AS $$
    DECLARE
      p text[];
      core text;
      e numeric;
    BEGIN
      IF t !~ '^[+-]?([0-9]+([.][0-9]*)?|[.][0-9]+)([eE][+-]?[0-9]+)?$' THEN RETURN t; END IF;
      p := regexp_match(t, '^([+-]?)([0-9]*)(?:[.]([0-9]*))?(?:[eE]([+-]?[0-9]+))?$');
      core := ltrim(p[2] || coalesce(p[3], ''), '0');
      IF core = '' THEN RETURN '0'; END IF;
      e := coalesce(p[4], '0')::numeric - length(coalesce(p[3], '')) + (length(core) - length(rtrim(core, '0')));
      RETURN CASE WHEN p[1] = '-' THEN '-' ELSE '' END || rtrim(core, '0') || 'e' || e::text;
    END
    $$`
  // A claim's new key: scalars by kind, a JSON list (an array value) item by item, sorted again.
  yield* sql`CREATE FUNCTION forms_0006_unique_key(kind text, v text) RETURNS text
    LANGUAGE plpgsql IMMUTABLE AS $$
    DECLARE
      out text;
    BEGIN
      IF kind IS DISTINCT FROM 'numeric' AND kind IS DISTINCT FROM 'phone' THEN RETURN v; END IF;
      IF left(v, 1) <> '[' THEN
        RETURN CASE WHEN kind = 'numeric' THEN forms_0006_numeric_key(v) ELSE regexp_replace(v, '[^0-9]', '', 'g') END;
      END IF;
      BEGIN
        SELECT '[' || string_agg(to_json(k.key)::text, ',' ORDER BY k.key COLLATE "C") || ']' INTO out
        FROM jsonb_array_elements_text(v::jsonb) AS item (value),
          LATERAL (SELECT CASE WHEN kind = 'numeric' THEN forms_0006_numeric_key(item.value)
                               ELSE regexp_replace(item.value, '[^0-9]', '', 'g') END AS key) AS k;
        RETURN coalesce(out, v);
      EXCEPTION WHEN others THEN
        RETURN v; -- not a JSON list: no array value ever made it, so it keeps its text key
      END;
    END
    $$`
  yield* sql`UPDATE unique_claims c
    SET value_digest = sha256(convert_to(forms_0006_unique_key(
      (SELECT f.type FROM form_fields f WHERE f.schema_id = c.schema_id AND f.slug = c.field_slug),
      c.normalized_value), 'UTF8'))`
  yield* sql`DELETE FROM unique_claims c
    USING (
      SELECT c2.schema_id, c2.field_slug, c2.normalized_value,
        row_number() OVER (PARTITION BY c2.schema_id, c2.field_slug, c2.value_digest
                           ORDER BY s.submitted_at NULLS LAST, c2.submission_id) AS n
      FROM unique_claims c2 LEFT JOIN submissions s ON s.id = c2.submission_id
    ) AS ranked
    WHERE ranked.n > 1 AND c.schema_id = ranked.schema_id AND c.field_slug = ranked.field_slug
      AND c.normalized_value = ranked.normalized_value`
  yield* sql`ALTER TABLE unique_claims
    DROP CONSTRAINT unique_claims_pkey,
    DROP COLUMN normalized_value,
    ALTER COLUMN value_digest SET NOT NULL,
    ADD CONSTRAINT unique_claims_value_digest_check CHECK (octet_length(value_digest) = 32),
    ADD CONSTRAINT unique_claims_pkey PRIMARY KEY (schema_id, field_slug, value_digest)`
  yield* sql`DROP FUNCTION forms_0006_unique_key(text, text)`
  yield* sql`DROP FUNCTION forms_0006_numeric_key(text)`
})
