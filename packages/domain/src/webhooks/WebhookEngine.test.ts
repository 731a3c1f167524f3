import { describe, expect, it } from "@effect/vitest"
import { Clock, Effect, Fiber, Layer, Option } from "effect"
import { TestClock } from "effect/testing"
import { conformanceSeed } from "../memory/conformanceSeed.js"
import { InMemoryStore } from "../memory/InMemoryStore.js"
import { InMemoryOrganiser } from "../memory/organiser/InMemoryOrganiser.js"
import { InMemoryWebhookStore } from "../memory/webhooks/InMemoryWebhookStore.js"
import { InMemoryWebhookTransport, makeTransportState } from "../memory/webhooks/InMemoryWebhookTransport.js"
import { first, newActor } from "../testing/organiser/organiserTestSupport.js"
import { unreachableTarget } from "./addressGuard.js"
import { attemptDelivery, deliverBatch, runWebhookEngine } from "./WebhookEngine.js"
import { WebhookSettings } from "./WebhookSettings.js"
import { WebhookStore } from "./WebhookStore.js"
import { WebhookTransport } from "./WebhookTransport.js"
import type { Actor } from "../shared/Actor.js"

const setup = (allowPrivateTargets: boolean, hosts: Record<string, ReadonlyArray<string>>, timeoutMs = 5_000) => {
  const transport = makeTransportState(hosts)
  const layer = Layer.mergeAll(
    InMemoryWebhookStore.layer.pipe(Layer.provide(InMemoryStore.layer(conformanceSeed))),
    InMemoryOrganiser.layer,
    InMemoryWebhookTransport.layer(transport),
    WebhookSettings.layer({ retryScheduleMs: [1_000, 60_000], timeoutMs, allowPrivateTargets })
  )
  return { transport, layer }
}

/** An endpoint of a new organisation (or of `actor`'s) with `n` test messages queued now. */
const queueMany = (url: string, n: number, actor?: Actor) =>
  Effect.gen(function*() {
    const store = yield* WebhookStore
    const owner = actor ?? (yield* newActor)
    const endpoint = yield* store.createEndpoint(owner, { url, event_types: ["*"], description: null }, "whsec_AAAA", 0)
    const at = yield* Clock.currentTimeMillis
    for (let i = 0; i < n; i++) {
      yield* store.queueTest(owner, endpoint.id, `00000000-0000-4000-9000-${(++messages).toString(16).padStart(12, "0")}`, at)
    }
    return { actor: owner, endpoint }
  })
let messages = 0

const statusesOf = (organisationId: string, endpointId: string) =>
  Effect.map(Effect.flatMap(WebhookStore, (s) => s.listDeliveries(organisationId, endpointId, undefined, { limit: 100, after: undefined })),
    (p) => p.items.map((d) => d.status))

const queue = (url: string) =>
  Effect.gen(function*() {
    const store = yield* WebhookStore
    const actor = yield* newActor
    const endpoint = yield* store.createEndpoint(actor, { url, event_types: ["*"], description: null }, "whsec_AAAA", 0)
    yield* store.queueTest(actor, endpoint.id, "00000000-0000-4000-9000-00000000beef", 0)
    return { actor, endpoint }
  })

const attemptsOf = (organisationId: string, endpointId: string) =>
  Effect.map(Effect.flatMap(WebhookStore, (s) => s.listDeliveries(organisationId, endpointId, undefined, first())), (p) => p.items[0])

describe("the delivery engine", () => {
  it.effect("the guard refuses a host that resolves to a private address: a failed attempt with that reason, nothing sent", () => {
    const { transport, layer } = setup(false, { "rebind.example.com": ["93.184.216.34", "10.0.0.7"] })
    return Effect.gen(function*() {
      const { actor, endpoint } = yield* queue("https://rebind.example.com/in")
      expect(yield* deliverBatch()).toBe(1)
      const d = yield* attemptsOf(actor.organisation_id, endpoint.id)
      expect(d?.attempts[0]?.error).toBe(`refused: ${unreachableTarget({ allowPrivateTargets: false })}`)
      expect(d?.status).toBe("pending")
      expect(transport.sent).toEqual([])
    }).pipe(Effect.provide(layer))
  })

  it.effect("one answer for every refused or unresolvable host: not found, hanging, loopback, private, embedded, benchmark", () => {
    const targets: Record<string, ReadonlyArray<string>> = {
      "loopback.example.com": ["127.0.0.1"],
      "private.example.com": ["10.1.2.3"],
      "benchmark.example.com": ["198.18.0.7"],
      "mapped.example.com": ["::ffff:169.254.169.254"],
      "translated.example.com": ["::ffff:0:10.0.0.1"],
      "sixtofour.example.com": ["2002:a00:1::1"],
      "nat64.example.com": ["64:ff9b::a00:1"],
      "nat64local.example.com": ["64:ff9b:1::a00:1"],
      "teredo.example.com": ["2001:0:4136:e378:8000:63bf:f5ff:fffe"],
      "mixed.example.com": ["93.184.216.34", "2002:7f00:1::1"],
      "empty.example.com": []
    }
    const { transport, layer } = setup(false, targets)
    transport.hangingLookups.add("hanging.example.com")
    return Effect.gen(function*() {
      const hosts = [...Object.keys(targets), "missing.example.com", "hanging.example.com"]
      const queued = yield* Effect.forEach(hosts, (host) => queue(`https://${host}/in`))
      const batch = yield* Effect.forkChild(deliverBatch())
      yield* TestClock.adjust(5_000)
      expect(yield* Fiber.join(batch)).toBe(hosts.length)
      const errors = yield* Effect.forEach(queued, ({ actor, endpoint }) =>
        Effect.map(attemptsOf(actor.organisation_id, endpoint.id), (d) => d?.attempts[0]?.error))
      expect(new Set(errors)).toEqual(new Set([`refused: ${unreachableTarget({ allowPrivateTargets: false })}`]))
      expect(transport.sent).toEqual([])
    }).pipe(Effect.provide(layer))
  })

  it.effect("http is refused at attempt time without private targets; sends to the checked address with the signature headers", () => {
    const { transport, layer } = setup(false, { "hooks.example.com": ["93.184.216.34"] })
    return Effect.gen(function*() {
      const http = yield* queue("http://hooks.example.com/in")
      yield* deliverBatch()
      expect((yield* attemptsOf(http.actor.organisation_id, http.endpoint.id))?.attempts[0]?.error).toBe(
        "refused: only https URLs are allowed (http needs WEBHOOK_ALLOW_PRIVATE_TARGETS=true on the server)"
      )
      const ok = yield* queue("https://hooks.example.com/in")
      yield* deliverBatch()
      expect(transport.sent).toHaveLength(1)
      expect(transport.sent[0]).toMatchObject({ url: "https://hooks.example.com/in", address: "93.184.216.34", timeoutMs: 5_000 })
      expect(transport.sent[0]?.headers["webhook-id"]).toBe("00000000-0000-4000-9000-00000000beef")
      expect(transport.sent[0]?.headers["webhook-signature"]).toMatch(/^v1,/)
      expect(JSON.parse(transport.sent[0]?.body ?? "{}")).toEqual({
        type: "webhook.test", timestamp: new Date(0).toISOString(), data: { webhook_id: ok.endpoint.id }
      })
      expect((yield* attemptsOf(ok.actor.organisation_id, ok.endpoint.id))?.status).toBe("delivered")
    }).pipe(Effect.provide(layer))
  })

  it.effect("1 + n attempts on the schedule, Retry-After honoured up to the longest delay, then failed", () => {
    const { transport, layer } = setup(true, { "hooks.example.com": ["127.0.0.1"] })
    return Effect.gen(function*() {
      transport.script.push(
        { _tag: "Answer", status: 429, retryAfter: "30" },
        { _tag: "NoAnswer", reason: "ECONNRESET" },
        { _tag: "Answer", status: 500, retryAfter: null }
      )
      const { actor, endpoint } = yield* queue("https://hooks.example.com/in")
      yield* deliverBatch()
      const after1 = yield* attemptsOf(actor.organisation_id, endpoint.id)
      expect(after1?.next_attempt_at).toBe(30_000)
      yield* TestClock.adjust(29_999)
      expect(yield* deliverBatch()).toBe(0)
      yield* TestClock.adjust(1)
      yield* deliverBatch()
      const after2 = yield* attemptsOf(actor.organisation_id, endpoint.id)
      expect(after2?.next_attempt_at).toBeGreaterThanOrEqual(30_000 + 48_000)
      expect(after2?.next_attempt_at).toBeLessThanOrEqual(30_000 + 60_000)
      yield* TestClock.adjust(60_000)
      yield* deliverBatch()
      const done = yield* attemptsOf(actor.organisation_id, endpoint.id)
      expect(done?.status).toBe("failed")
      expect(done?.attempts.map((a) => [a.status_code, a.error])).toEqual([[429, "HTTP 429"], [null, "ECONNRESET"], [500, "HTTP 500"]])
      expect(Option.isSome(yield* Effect.flatMap(WebhookStore, (s) => s.findEndpoint(actor.organisation_id, endpoint.id)))).toBe(true)
    }).pipe(Effect.provide(layer))
  })

  it.effect("one timeout for the whole attempt: a lookup that outlasts it fails the attempt at the timeout; a slow one shortens the request's", () => {
    const { transport, layer } = setup(true, { "hooks.example.com": ["127.0.0.1"] })
    return Effect.gen(function*() {
      // The lease is the timeout plus a margin: an attempt held up past it would run beside the next claim's.
      transport.resolveDelayMs = 60_000
      const { actor, endpoint } = yield* queue("https://hooks.example.com/in")
      const batch = yield* Effect.forkChild(deliverBatch())
      yield* TestClock.adjust(5_000)
      expect(yield* Fiber.join(batch)).toBe(1)
      const d = yield* attemptsOf(actor.organisation_id, endpoint.id)
      expect(d?.attempts.map((a) => [a.error, a.duration_ms])).toEqual([
        [`refused: ${unreachableTarget({ allowPrivateTargets: true })}`, 5_000]
      ])
      expect(d?.status).toBe("pending")
      expect(transport.sent).toEqual([])

      // A slow lookup leaves the request the rest; a request that then times out is the attempt's time-out.
      transport.resolveDelayMs = 2_000
      transport.sendDelayMs = 3_000
      transport.script.push({ _tag: "NoAnswer", reason: "timed out after 3000 ms" })
      const second = yield* queue("https://hooks.example.com/in")
      const batch2 = yield* Effect.forkChild(deliverBatch())
      yield* TestClock.adjust(5_000)
      yield* Fiber.join(batch2)
      expect(transport.sent.map((m) => m.timeoutMs)).toEqual([3_000])
      const d2 = yield* attemptsOf(second.actor.organisation_id, second.endpoint.id)
      expect(d2?.attempts.map((a) => [a.error, a.duration_ms])).toEqual([["timed out after 5000 ms", 5_000]])
    }).pipe(Effect.provide(layer))
  })

  it.effect("an event whose payload retention emptied is never sent: its delivery fails with that reason, at once", () => {
    const { transport, layer } = setup(true, { "hooks.example.com": ["127.0.0.1"] })
    return Effect.gen(function*() {
      const outcome = yield* attemptDelivery({
        id: "00000000-0000-4000-9000-000000000001",
        endpoint_id: "00000000-0000-4000-9000-000000000002",
        event_id: "00000000-0000-4000-9000-000000000003",
        event_type: "submission.submitted",
        event_at: 0,
        payload: {},
        organisation_id: "org",
        form_id: "form",
        url: "https://hooks.example.com/in",
        secret: "whsec_AAAA",
        previous_secret: null,
        secret_rotated_at: null,
        attempt: 1,
        attempt_in_round: 1
      })
      expect([outcome.status, outcome.next_attempt_at, outcome.attempt.error]).toEqual([
        "failed", null, "the event's payload was emptied by retention (OUTBOX_RETENTION_DAYS)"
      ])
      expect(transport.sent).toEqual([])
    }).pipe(Effect.provide(layer))
  })

  it.effect("a defect in an attempt does not stop the engine: the delivery comes back after its lease", () => {
    const { transport, layer } = setup(true, { "hooks.example.com": ["127.0.0.1"] })
    let calls = 0
    const flaky = Layer.effect(WebhookTransport, Effect.map(WebhookTransport, (inner) =>
      WebhookTransport.of({
        ...inner,
        send: (message) => {
          calls++
          return calls === 1 ? Effect.die(new Error("boom")) : inner.send(message)
        }
      })))
    return Effect.gen(function*() {
      const { actor, endpoint } = yield* queue("https://hooks.example.com/in")
      yield* Effect.forkChild(runWebhookEngine({ pollIntervalMs: 100, leaseMarginMs: 1_000 }))
      yield* TestClock.adjust(100)
      expect(calls).toBe(1)
      yield* TestClock.adjust(6_100)
      const d = yield* attemptsOf(actor.organisation_id, endpoint.id)
      expect(d?.status).toBe("delivered")
      expect(d?.attempts.map((a) => a.status_code)).toEqual([null, 200])
      expect(transport.sent).toHaveLength(1)
    }).pipe(Effect.provide(Layer.mergeAll(layer, flaky.pipe(Layer.provide(layer)))))
  })

  it.effect("a slow attempt holds one worker, not a batch: a live receiver's deliveries go on while a silent one's waits out its timeout", () => {
    const { transport, layer } = setup(false, { "dead.example.com": ["93.184.216.34"], "live.example.com": ["93.184.216.35"] }, 30_000)
    transport.silentHosts.add("dead.example.com")
    return Effect.gen(function*() {
      yield* queueMany("https://dead.example.com/in", 1)
      const live = yield* queueMany("https://live.example.com/in", 12)
      yield* Effect.forkChild(runWebhookEngine({ concurrency: 4, pollIntervalMs: 100 }))
      yield* TestClock.adjust(1_000)
      expect(yield* statusesOf(live.actor.organisation_id, live.endpoint.id)).toEqual(Array(12).fill("delivered"))
      expect(transport.inFlight.get("dead.example.com")).toBe(1)
    }).pipe(Effect.provide(layer))
  })

  it.effect("one organisation's dead receivers (40 messages to a silent one, a lookup that hangs) do not delay another's message", () => {
    const { transport, layer } = setup(false, {
      "dead.example.com": ["93.184.216.34"], "live.example.com": ["93.184.216.35"]
    }, 30_000)
    transport.silentHosts.add("dead.example.com")
    transport.hangingLookups.add("hang.example.com")
    return Effect.gen(function*() {
      const b = yield* queueMany("https://dead.example.com/in", 40)
      yield* queueMany("https://hang.example.com/in", 40, b.actor)
      yield* Effect.forkChild(runWebhookEngine({ pollIntervalMs: 100 }))
      yield* TestClock.adjust(500)
      // Org B holds its endpoint caps (4 each) and no more: the rest of the pool is free.
      expect(transport.peakInFlight.get("dead.example.com")).toBe(4)
      const a = yield* queueMany("https://live.example.com/in", 1)
      yield* TestClock.adjust(200)
      // Delivered at the next poll, 29 s before B's first attempts time out.
      expect(yield* statusesOf(a.actor.organisation_id, a.endpoint.id)).toEqual(["delivered"])
      yield* TestClock.adjust(60_000)
      expect(transport.peakInFlight.get("dead.example.com")).toBe(4)
    }).pipe(Effect.provide(layer))
  })
})
