/**
 * The organiser's message use cases after authentication, the query and the `admin` limit: the list, one
 * message with its body (links shown as `[link]`), a retry (404 `MESSAGE_NOT_FOUND`, 409 `MESSAGE_NOT_RETRYABLE`).
 */
import { Clock, Context, Effect, Layer, Option } from "effect"
import type { Actor } from "../shared/Actor.js"
import type { Unavailable } from "../shared/errors.js"
import type { CreatedKey, Page, PageRequest } from "../shared/paging.js"
import { MessageNotFound, type MessageNotRetryable } from "./errors.js"
import type { Message } from "./Message.js"
import { type MessageFilter, MessageLog } from "./MessageLog.js"
import { MessagesConfig } from "./MessagesConfig.js"
import { organiserBody } from "./messageLinks.js"

export class OrganiserMessages extends Context.Service<OrganiserMessages, {
  readonly list: (actor: Actor, filter: MessageFilter, page: PageRequest<CreatedKey>) => Effect.Effect<Page<Message>, Unavailable>
  /** The message with its body as the organiser sees it: every link as `[link]`. */
  readonly get: (actor: Actor, id: string) => Effect.Effect<Message, MessageNotFound | Unavailable>
  readonly retry: (actor: Actor, id: string) => Effect.Effect<Message, MessageNotFound | MessageNotRetryable | Unavailable>
}>()("@forms/domain/OrganiserMessages") {}

const shown = (message: Message): Message => ({ ...message, body: organiserBody(message.body) })

export const makeOrganiserMessages = Effect.gen(function*() {
  const log = yield* MessageLog
  const config = yield* MessagesConfig
  return OrganiserMessages.of({
    list: Effect.fn("OrganiserMessages.list")(function*(actor: Actor, filter: MessageFilter, page: PageRequest<CreatedKey>) {
      return yield* log.list(actor.organisation_id, filter, page)
    }),
    get: Effect.fn("OrganiserMessages.get")(function*(actor: Actor, id: string) {
      const found = yield* log.find(actor.organisation_id, id)
      if (Option.isNone(found)) return yield* new MessageNotFound()
      return shown(found.value)
    }),
    retry: Effect.fn("OrganiserMessages.retry")(function*(actor: Actor, id: string) {
      const found = yield* log.retry(actor, id, config.sending ? "pending" : "held", yield* Clock.currentTimeMillis)
      if (Option.isNone(found)) return yield* new MessageNotFound()
      return found.value
    })
  })
})

/** The organiser's message use cases; needs MessageLog (and MessagesConfig, whose default holds every message). */
export const OrganiserMessagesLive = { layer: Layer.effect(OrganiserMessages, makeOrganiserMessages) } as const
