/** Port: the outbox as an operator sees it (CONTRACT §6, §12): listed by state without payloads, a dead event retried. */
import { Context, type Effect } from "effect"
import type { Actor } from "../shared/Actor.js"
import type { Unavailable } from "../shared/errors.js"
import type { CreatedKey, Page, PageRequest } from "../shared/paging.js"
import type { EventNotDead, OutboxEventNotFound } from "./errors.js"
import type { OutboxEntry, OutboxState } from "./SubmissionsOutModel.js"

type E<A, X = never> = Effect.Effect<A, X | Unavailable>

export class OutboxAdmin extends Context.Service<OutboxAdmin, {
  /**
   * Events in `state`, newest first (`created_at`, then `id`); scoped to the organisation, or every event
   * when `organisationId` is undefined (the CLI).
   */
  readonly list: (organisationId: string | undefined, state: OutboxState, page: PageRequest<CreatedKey>) => E<Page<OutboxEntry>>
  /**
   * One atomic step: a dead event is due again at `at` with a fresh round of attempts; with an actor, scoped
   * to its organisation and audited (`outbox_event.retried`).
   */
  readonly retry: (actor: Actor | undefined, id: string, at: number) => E<OutboxEntry, OutboxEventNotFound | EventNotDead>
}>()("@forms/domain/OutboxAdmin") {}
