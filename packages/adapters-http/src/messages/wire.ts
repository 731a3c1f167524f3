/** Messages on the wire for organisers: the domain's `Message` without its organisation and sending bookkeeping, instants in ISO 8601. */
import { Schema, Struct } from "effect"
import { Message } from "@forms/domain"
import { Count } from "../http/wireNumbers.js"
import { envelopeOf, iso, isoOrNull, listOf } from "../http/wireShapes.js"

const summaryFields = Message.mapFields(Struct.omit(["organisation_id", "body", "round_start"]))
  .mapFields((f) => ({ ...f, attempts: Count, created_at: Schema.String, sent_at: Schema.NullOr(Schema.String) }))

/** A list item: `to` one address, `attempts` a count. */
export const MessageWire = summaryFields.annotate({ identifier: "AdminMessage" })
/** One message: the list item and its `body` (links shown as `[link]`). */
export const MessageDetailWire = Schema.Struct({ ...summaryFields.fields, body: Schema.String })
  .annotate({ identifier: "AdminMessageDetail" })
export const MessageList = listOf(MessageWire, "AdminMessageList")
export const MessageEnvelope = envelopeOf(MessageWire, "AdminMessageEnvelope")
export const MessageDetailEnvelope = envelopeOf(MessageDetailWire, "AdminMessageDetailEnvelope")

export const toMessageWire = (m: Message): typeof MessageWire.Type => ({
  id: m.id,
  kind: m.kind,
  to: m.to,
  subject: m.subject,
  status: m.status,
  attempts: m.attempts,
  last_error: m.last_error,
  created_at: iso(m.created_at),
  sent_at: isoOrNull(m.sent_at),
  submission_id: m.submission_id,
  engagement_id: m.engagement_id
})

export const toMessageDetailWire = (m: Message): typeof MessageDetailWire.Type => ({ ...toMessageWire(m), body: m.body })
