/** A message row as the SQL adapters read it: the domain's `Message`, decoded from the columns of `messages`. */
import { Message } from "@forms/domain"
import { epochMs } from "../sql/sqlValues.js"

export const MessageRow = Message

/** The columns of `Message` from the `messages` row aliased `alias`. */
export const columns = (alias: string) => `${alias}.id::text AS id, ${alias}.organisation_id, ${alias}.submission_id::text AS submission_id,
  ${alias}.engagement_id, ${alias}.kind, ${alias}.to_address AS to, ${alias}.subject, ${alias}.body, ${alias}.status,
  ${alias}.attempts, ${alias}.round_start, ${alias}.last_error, ${epochMs(`${alias}.created_at`)} AS created_at,
  ${epochMs(`${alias}.sent_at`)} AS sent_at`
