/** Port: the recorded messages as the sender claims and settles them (rows recorded by their causes' stores). */
import { Context, type Effect } from "effect"
import type { Unavailable } from "../shared/errors.js"
import type { ClaimedMessage, Message } from "./Message.js"

/** How an attempt ended. */
export type Settlement =
  | { readonly _tag: "Sent" }
  | { readonly _tag: "Retry"; readonly at: number; readonly reason: string }
  | { readonly _tag: "Failed"; readonly reason: string }

export class MessageRows extends Context.Service<MessageRows, {
  /**
   * Up to `limit` pending messages due at `now` (a retry's time reached, or a lease lapsed), each leased until
   * `now + leaseMs` and its attempt counted; no other sender claims them meanwhile. Committed before it answers.
   */
  readonly claimDue: (now: number, leaseMs: number, limit: number) => Effect.Effect<ReadonlyArray<ClaimedMessage>, Unavailable>
  /** Records how the attempt numbered `attempt` ended; a no-op when the message was claimed again since. */
  readonly settle: (id: string, attempt: number, settlement: Settlement, now: number) => Effect.Effect<void, Unavailable>
  /** One message (None when unknown). */
  readonly find: (id: string) => Effect.Effect<Message | undefined, Unavailable>
}>()("@forms/domain/MessageRows") {}
