/** Messages recorded by their cause's statement or transaction (a submit), as json the SQL unpacks. */
import type { NewMessage } from "@forms/domain"
import type { SqlClient } from "effect/sql"
import { jsonText } from "../sql/sqlValues.js"

/** `messages` as the json array the `INSERT … SELECT` reads. */
export const messagesJson = (messages: ReadonlyArray<NewMessage>): string =>
  jsonText(messages.map((m) => ({
    kind: m.kind, to: m.to, subject: m.subject, body: m.body, status: m.status, last_error: m.last_error ?? null,
    link_kind: m.link?.kind ?? null, link_schema_id: m.link?.schema_id ?? null, link_token: m.link?.sealed ?? null
  })))

/**
 * The `INSERT` of a submission's messages, due at `at`, for the organisation of its form. `afterUpdate`: inside the
 * submit's one statement, selecting from its `updated` CTE (nothing is inserted when the update hit no row).
 */
export const insertMessages = (
  sql: SqlClient.SqlClient,
  submission: { readonly schema_id: string; readonly id: string; readonly messages?: ReadonlyArray<NewMessage> | undefined },
  at: Date,
  afterUpdate: boolean
) =>
  sql`INSERT INTO messages (organisation_id, submission_id, kind, to_address, subject, body, status, last_error,
      link_kind, link_schema_id, link_token, due_at, created_at)
    SELECT (SELECT organisation_id FROM form_schemas WHERE id = ${submission.schema_id}), ${submission.id}::uuid,
      m.msg->>'kind', m.msg->>'to', m.msg->>'subject', m.msg->>'body', m.msg->>'status', m.msg->>'last_error',
      m.msg->>'link_kind', m.msg->>'link_schema_id', m.msg->>'link_token', ${at}::timestamptz, ${at}::timestamptz
    FROM ${sql.literal(afterUpdate ? "updated, " : "")}jsonb_array_elements(${messagesJson(submission.messages ?? [])}::jsonb)
      WITH ORDINALITY AS m (msg, n)
    ORDER BY m.n`
