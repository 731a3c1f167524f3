/** In-memory `MessageLog` over the store's messages: the organiser's list, one message, a retry with its audit entry. */
import { Effect, Layer, Option, Result } from "effect"
import { MessageNotRetryable } from "../../messages/errors.js"
import { MessageLog } from "../../messages/MessageLog.js"
import { appendAudit, InMemoryStore } from "../InMemoryStore.js"
import { newestFirst, pagedByCreation } from "../paging.js"

const inMemoryMessageLogLayer = Layer.effect(
  MessageLog,
  Effect.gen(function*() {
    const store = yield* InMemoryStore
    const data = store.data
    const rowOf = (organisationId: string, id: string) =>
      data.messages.find((r) => r.message.id === id && r.message.organisation_id === organisationId)
    return MessageLog.of({
      list: (organisationId, filter, page) =>
        store.atomically(() =>
          Result.succeed(pagedByCreation(
            data.messages.map((r) => r.message).filter((m) =>
              m.organisation_id === organisationId &&
              (filter.status === undefined || m.status === filter.status) &&
              (filter.submission_id === undefined || m.submission_id === filter.submission_id)
            ),
            newestFirst,
            page
          ))
        ),
      find: (organisationId, id) => store.atomically(() => Result.succeed(Option.fromUndefinedOr(rowOf(organisationId, id)?.message))),
      retry: (actor, id, status, at) =>
        store.atomically(() => {
          const row = rowOf(actor.organisation_id, id)
          if (row === undefined) return Result.succeed(Option.none())
          if (row.message.status !== "failed" && row.message.status !== "held") return Result.fail(new MessageNotRetryable())
          row.message = { ...row.message, status, round_start: row.message.attempts }
          row.due_at = at
          appendAudit(data, actor, at, { action: "message.retried", resource_type: "message", resource_id: id })
          return Result.succeed(Option.some(row.message))
        })
    })
  })
)

/** The layer of `InMemoryMessageLog`: `InMemoryMessageLog.layer`. */
export const InMemoryMessageLog = { layer: inMemoryMessageLogLayer } as const
