/**
 * Migration 16: `forms_claims_lost(lost)`, for the submit that is one statement (issue 23, `publicForms/submitStatement.ts`).
 * That statement updates the submission, inserts its unique claims and its outbox rows together; when another
 * submission already holds one of the values, all three must be undone. With no transaction around the
 * statement, the only way to undo it is to fail it: this function raises `unique_violation` (SQLSTATE 23505)
 * on the constraint name `unique_claims_lost` when `lost` is above 0, and answers false otherwise.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE FUNCTION forms_claims_lost(lost integer) RETURNS boolean
    LANGUAGE plpgsql VOLATILE AS $$
    BEGIN
      IF lost > 0 THEN
        RAISE EXCEPTION 'a unique value of this submission is held by another one'
          USING ERRCODE = 'unique_violation', CONSTRAINT = 'unique_claims_lost';
      END IF;
      RETURN false;
    END
    $$`
})
