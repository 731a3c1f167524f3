/**
 * Messages recorded by a cause other than a submit (a reminder, a promotion, a portal link), each with the
 * organisation, submission or engagement it belongs to, due at once. Ids are made here, so the cause's own rows can
 * name their message in the same step.
 */
import { randomUUID } from "node:crypto"
import type { NewMessage } from "@forms/domain"
import type { SqlClient } from "effect/sql"
import { jsonText } from "../sql/sqlValues.js"

export interface MessageOwner {
  readonly organisation_id: string
  readonly submission_id: string | null
  readonly engagement_id: string | null
}

export interface OwnedMessage {
  readonly id: string
  readonly owner: MessageOwner
  readonly message: NewMessage
}

/** A message with a fresh id. */
export const owned = (owner: MessageOwner, message: NewMessage): OwnedMessage => ({ id: randomUUID(), owner, message })

export const insertOwnedMessages = (sql: SqlClient.SqlClient, messages: ReadonlyArray<OwnedMessage>, at: Date) =>
  sql`INSERT INTO messages (id, organisation_id, submission_id, engagement_id, kind, to_address, subject, body, status,
      due_at, created_at)
    SELECT (m.msg->>'id')::uuid, m.msg->>'organisation_id', (m.msg->>'submission_id')::uuid, m.msg->>'engagement_id',
      m.msg->>'kind', m.msg->>'to', m.msg->>'subject', m.msg->>'body', m.msg->>'status', ${at}::timestamptz, ${at}::timestamptz
    FROM jsonb_array_elements(${
    jsonText(messages.map(({ id, message, owner }) => ({
      id,
      ...owner,
      kind: message.kind,
      to: message.to,
      subject: message.subject,
      body: message.body,
      status: message.status
    })))
  }::jsonb) WITH ORDINALITY AS m (msg, n)
    ORDER BY m.n`
