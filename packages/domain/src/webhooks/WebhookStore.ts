/**
 * Port: webhook endpoints and their deliveries (CONTRACT §13), scoped by organisation; writes of the
 * organiser routes with their audit entry. Deliveries of outbox events are recorded by the Outbox's
 * `markDelivered` in the same atomic step (one per subscribed endpoint), never by a round trip of their own.
 */
import { Context, type Effect, type Option } from "effect"
import type { Actor } from "../shared/Actor.js"
import type { Unavailable } from "../shared/errors.js"
import type { CreatedKey, Page, PageRequest } from "../shared/paging.js"
import type { WebhookNotFound } from "./errors.js"
import type {
  AttemptOutcome,
  ClaimedDelivery,
  DeliveryClaimPolicy,
  DeliveryStatus,
  EndpointInput,
  EndpointPatch,
  WebhookDelivery,
  WebhookEndpoint
} from "./WebhookModel.js"

type E<A, X = never> = Effect.Effect<A, X | Unavailable>

export class WebhookStore extends Context.Service<WebhookStore, {
  /** Newest first (`created_at`, then `id`). */
  readonly listEndpoints: (organisationId: string, page: PageRequest<CreatedKey>) => E<Page<WebhookEndpoint>>
  readonly findEndpoint: (organisationId: string, id: string) => E<Option.Option<WebhookEndpoint>>
  /** A new enabled endpoint (id a generated UUID) with `webhook.created`. */
  readonly createEndpoint: (actor: Actor, input: EndpointInput, secret: string, at: number) => E<WebhookEndpoint>
  /**
   * Changes the members given, with `webhook.updated`. Enabling clears `disabled_reason` and makes its
   * pending deliveries due at `at`; disabling sets `disabled_reason` to "disabled by the organiser".
   */
  readonly updateEndpoint: (actor: Actor, id: string, patch: EndpointPatch, at: number) => E<WebhookEndpoint, WebhookNotFound>
  /** Deletes it and its deliveries, with `webhook.deleted`. */
  readonly deleteEndpoint: (actor: Actor, id: string, at: number) => E<void, WebhookNotFound>
  /** `secret` becomes the endpoint's; the one before signs too for 24 h. `webhook.secret_rotated`. */
  readonly rotateSecret: (actor: Actor, id: string, secret: string, at: number) => E<void, WebhookNotFound>

  /** Newest first; `status` filters. */
  readonly listDeliveries: (
    organisationId: string,
    endpointId: string,
    status: DeliveryStatus | undefined,
    page: PageRequest<CreatedKey>
  ) => E<Page<WebhookDelivery>, WebhookNotFound>
  /** A `webhook.test` delivery with `data: { webhook_id }`, event id `eventId`, due at `at`. */
  readonly queueTest: (actor: Actor, endpointId: string, eventId: string, at: number) => E<WebhookDelivery, WebhookNotFound>
  /**
   * Due again at `at` with a new round of attempts (a failed or delivered one: a replay), with
   * `webhook_delivery.retried`. None when the endpoint has no such delivery. One in flight stays as it is.
   */
  readonly retryDelivery: (
    actor: Actor,
    endpointId: string,
    deliveryId: string,
    at: number
  ) => E<Option.Option<WebhookDelivery>, WebhookNotFound>
  /**
   * Every handled outbox event of the endpoint's organisation and types recorded at or after `since`,
   * except erased or emptied ones, due again at `at` (a new round; a new delivery where none was recorded), with
   * `webhook.replayed`. Answers how many were queued. An event recorded since then and handled later is
   * fanned out to the endpoint when it is (the Outbox's `markDelivered`), whenever the endpoint was created.
   */
  readonly replay: (actor: Actor, endpointId: string, since: number, at: number) => E<number, WebhookNotFound>

  /**
   * Claims up to `limit` due pending deliveries of enabled endpoints in one atomic step (SKIP LOCKED on
   * SQL), oldest due first, within the policy's caps: never more than `endpointConcurrency` attempts in flight to
   * one endpoint nor `organisationConcurrency` for one organisation, counted over every claimant (claims of
   * several processes are serialised, so the caps hold between them). Counts the attempt and leases it for
   * `policy.leaseMs`. A delivery whose attempt before was
   * claimed and never answered gets an interrupted attempt recorded; if that was the last of its round,
   * it becomes `failed` instead of being claimed.
   */
  readonly claimDeliveries: (limit: number, policy: DeliveryClaimPolicy, at: number) => E<ReadonlyArray<ClaimedDelivery>>
  /**
   * Records the outcome of attempt `attempt` of a delivery (ignored unless it is still the delivery's
   * outstanding attempt); disables the endpoint when the outcome says so.
   */
  readonly recordAttempt: (delivery: ClaimedDelivery, outcome: AttemptOutcome) => E<void>
}>()("@forms/domain/WebhookStore") {}
