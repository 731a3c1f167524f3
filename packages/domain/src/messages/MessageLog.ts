/**
 * Port: the organiser's view of the recorded messages, scoped by organisation: the list, one message, a retry
 * with its audit entry (one atomic step).
 */
import { Context, type Effect, type Option } from "effect"
import type { Actor } from "../shared/Actor.js"
import type { Unavailable } from "../shared/errors.js"
import type { CreatedKey, Page, PageRequest } from "../shared/paging.js"
import type { MessageNotRetryable } from "./errors.js"
import type { Message, MessageStatus } from "./Message.js"

/** The list's filters (`?status=`, `?submission_id=`); absent: every message. */
export interface MessageFilter {
  readonly status?: MessageStatus | undefined
  readonly submission_id?: string | undefined
}

export const messageKeyOf = (m: Message): CreatedKey => ({ created_at: m.created_at, id: m.id })

export class MessageLog extends Context.Service<MessageLog, {
  /** Newest first (`created_at`, then `id`). */
  readonly list: (
    organisationId: string,
    filter: MessageFilter,
    page: PageRequest<CreatedKey>
  ) => Effect.Effect<Page<Message>, Unavailable>
  readonly find: (organisationId: string, id: string) => Effect.Effect<Option.Option<Message>, Unavailable>
  /**
   * A `failed` or `held` message queued again: `status` (`pending`, due at `at`, with a new round of attempts; or
   * `held` again while nothing is sent), with the audit entry `message.retried`. None when the organisation has no
   * such message; `MessageNotRetryable` when it is `pending` or `sent`.
   */
  readonly retry: (
    actor: Actor,
    id: string,
    status: "pending" | "held",
    at: number
  ) => Effect.Effect<Option.Option<Message>, MessageNotRetryable | Unavailable>
}>()("@forms/domain/MessageLog") {}
