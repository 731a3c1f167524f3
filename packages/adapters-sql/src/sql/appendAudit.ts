/** The audit log's one writer: every audited write appends its entry inside its own transaction. */
import type { SqlClient } from "effect/sql"
import type { Actor, AuditRecord } from "@forms/domain"

/** Appends the audit entry of a write; called inside the write's transaction. */
export const appendAudit = (sql: SqlClient.SqlClient, actor: Actor, at: number, record: AuditRecord) =>
  sql`INSERT INTO audit_log (organisation_id, api_key_id, action, resource_type, resource_id, at)
    VALUES (${actor.organisation_id}, ${actor.api_key_id}, ${record.action}, ${record.resource_type},
            ${record.resource_id}, ${new Date(at)}::timestamptz)`
