/** In-memory Outbox: claims that count an attempt and lease, delivered, failed with a retry time, dead, retried. */
import { Effect, Layer, Result } from "effect"
import {
  type Claimed,
  type ClaimPolicy,
  interruptedAttemptError,
  Outbox,
  type OutboxEvent
} from "../../events/Outbox.js"
import { type InMemoryOutboxRow, InMemoryStore } from "../InMemoryStore.js"
import { fanOut } from "../webhooks/webhookFanOut.js"

const toEvent = (row: InMemoryOutboxRow): OutboxEvent => ({
  id: row.id,
  type: row.type,
  payload: row.payload,
  attempts: row.attempts,
  last_error: row.last_error
})

const isDue = (row: InMemoryOutboxRow, now: number): boolean =>
  row.delivered_at === null &&
  row.dead_at === null &&
  row.available_at <= now &&
  (row.claimed_until === null || row.claimed_until <= now)

const inMemoryOutboxLayer = Layer.effect(
  Outbox,
  Effect.gen(function*() {
    const store = yield* InMemoryStore
    const rows = store.data.outbox
    const update = (id: string, change: (row: InMemoryOutboxRow) => InMemoryOutboxRow | undefined): boolean => {
      const index = rows.findIndex((row) => row.id === id)
      const row = rows[index]
      if (row === undefined) return false
      const changed = change(row)
      if (changed === undefined) return false
      rows[index] = changed
      return true
    }
    const claim = (limit: number, policy: ClaimPolicy, options: { readonly interruptedAlone: boolean }) =>
      store.atomically((now) => {
        const sorted = rows
          .map((row, index) => ({ row, index }))
          .filter(({ row }) => isDue(row, now))
          .sort((a, b) => a.row.available_at - b.row.available_at || a.index - b.index)
          .slice(0, Math.max(0, limit))
        // A batch: the first due event alone when its last attempt was interrupted, else only uninterrupted ones.
        const first = sorted[0]
        const due = !options.interruptedAlone
          ? sorted
          : first !== undefined && first.row.claimed_until !== null
          ? [first]
          : sorted.filter(({ row }) => row.claimed_until === null)
        const events: Array<OutboxEvent> = []
        const parked: Array<OutboxEvent> = []
        for (const { row, index } of due) {
          // Still marked claimed although due: its attempt ended without an outcome.
          const interrupted = row.claimed_until !== null
          const last_error = interrupted ? interruptedAttemptError : row.last_error
          if (interrupted && row.attempts > 0 && row.attempts % Math.max(1, policy.maxAttempts) === 0) {
            rows[index] = { ...row, last_error, claimed_until: null, dead_at: now }
            parked.push(toEvent(rows[index]))
          } else {
            // The lease also moves the event's due time, as the SQL adapter does: a crashed one comes back last.
            const until = now + policy.leaseMs
            rows[index] = { ...row, attempts: row.attempts + 1, last_error, claimed_until: until, available_at: until }
            events.push(toEvent(rows[index]))
          }
        }
        return Result.succeed<Claimed>({ events, parked })
      })
    const markDelivered = (ids: ReadonlyArray<string>) =>
      store.atomically((now) => {
        // Handled and fanned out to the subscribed webhook endpoints in one step, as on SQL.
        for (const id of new Set(ids)) {
          const handled = update(id, (row) => row.delivered_at !== null ? undefined : { ...row, delivered_at: now, claimed_until: null })
          const row = rows.find((r) => r.id === id)
          if (handled && row !== undefined) fanOut(store.data.webhooks, row, now)
        }
        return Result.succeed(undefined)
      })
    return Outbox.of({
      claim: (limit, policy) => claim(limit, policy, { interruptedAlone: false }),
      claimBatch: (limit, policy) => claim(limit, policy, { interruptedAlone: true }),
      markDelivered: (id) => markDelivered([id]),
      markDeliveredMany: markDelivered,
      markFailed: (id, attempt, error, retryAt) =>
        store.atomically((now) => {
          update(id, (row) =>
            row.attempts !== attempt || row.claimed_until === null || row.delivered_at !== null || row.dead_at !== null
              ? undefined
              : {
                ...row,
                last_error: error,
                claimed_until: null,
                available_at: retryAt ?? row.available_at,
                dead_at: retryAt === null ? now : null
              })
          return Result.succeed(undefined)
        }),
      dead: store.atomically(() =>
        Result.succeed(rows.filter((row) => row.dead_at !== null && row.delivered_at === null).map(toEvent))
      ),
      retry: (id) =>
        store.atomically((now) =>
          Result.succeed(update(id, (row) =>
            row.dead_at === null || row.delivered_at !== null
              ? undefined
              : { ...row, dead_at: null, available_at: now, claimed_until: null }))
        )
    })
  })
)

/** The layer of `InMemoryOutbox`: `InMemoryOutbox.layer`. */
export const InMemoryOutbox = { layer: inMemoryOutboxLayer } as const
