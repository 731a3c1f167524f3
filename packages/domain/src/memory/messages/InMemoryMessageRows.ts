/** In-memory `MessageRows` over the store's messages (recorded by the in-memory submit, in its atomic step). */
import { Effect, Layer, Result } from "effect"
import { MessageRows } from "../../messages/MessageRows.js"
import { InMemoryStore } from "../InMemoryStore.js"

const inMemoryMessageRowsLayer = Layer.effect(
  MessageRows,
  Effect.gen(function*() {
    const store = yield* InMemoryStore
    const data = store.data
    return MessageRows.of({
      claimDue: (now, leaseMs, limit) =>
        store.atomically(() => {
          const due = data.messages.filter((row) => row.message.status === "pending" && row.due_at <= now).slice(0, limit)
          for (const row of due) {
            row.message = { ...row.message, attempts: row.message.attempts + 1 }
            row.due_at = now + leaseMs
          }
          return Result.succeed(due.map((row) => ({
            ...row.message,
            link: row.link === undefined ? null : {
              kind: row.link.kind,
              page_token: data.schemas.get(row.link.schema_id)?.public_token ?? null,
              sealed: row.link.sealed
            }
          })))
        }),
      settle: (id, attempt, settlement, now) =>
        store.atomically(() => {
          const row = data.messages.find((r) => r.message.id === id)
          if (row === undefined || row.message.attempts !== attempt || row.message.status !== "pending") {
            return Result.succeed(undefined)
          }
          if (settlement._tag === "Sent") {
            row.message = { ...row.message, status: "sent", sent_at: now, last_error: null }
          } else if (settlement._tag === "Retry") {
            row.message = { ...row.message, last_error: settlement.reason }
            row.due_at = settlement.at
          } else row.message = { ...row.message, status: "failed", last_error: settlement.reason }
          return Result.succeed(undefined)
        }),
      find: (id) => store.atomically(() => Result.succeed(data.messages.find((r) => r.message.id === id)?.message))
    })
  })
)

/** The layer of `InMemoryMessageRows`: `InMemoryMessageRows.layer`. */
export const InMemoryMessageRows = { layer: inMemoryMessageRowsLayer } as const
