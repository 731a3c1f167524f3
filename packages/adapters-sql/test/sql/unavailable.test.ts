import { describe, expect, it } from "@effect/vitest"
import { createServer, type Server, type Socket } from "node:net"
import { Duration, Effect, Layer } from "effect"
import {
  Engagements,
  Enrichment,
  FormSchemas,
  Outbox,
  OutboxSignal,
  RateLimiter,
  SchemaCatalog,
  Submissions,
  ValueTargets
} from "@forms/domain"
import { PgLive } from "../../src/connection/PgLive.js"
import { SqlOutboxSignal } from "../../src/events/SqlOutboxSignal.js"
import { SqlPortalPorts } from "../../src/SqlPortalPorts.js"
import { SqlPorts } from "../../src/SqlPorts.js"

const listen = (server: Server) =>
  Effect.callback<number>((resume) => {
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      resume(Effect.succeed(typeof address === "object" && address !== null ? address.port : 0))
    })
  })

const close = (server: Server) => Effect.callback<void>((resume) => void server.close(() => resume(Effect.void)))

/** A port nothing listens on: bound once, then closed. */
const closedPort = Effect.gen(function*() {
  const server = createServer()
  const port = yield* listen(server)
  yield* close(server)
  return port
})

/** A server that accepts connections and never answers (a hung database). */
const blackHole = Effect.acquireRelease(
  Effect.gen(function*() {
    const sockets = new Set<Socket>()
    const server = createServer((socket) => void sockets.add(socket))
    const port = yield* listen(server)
    return { server, sockets, port }
  }),
  ({ server, sockets }) => Effect.andThen(Effect.sync(() => sockets.forEach((s) => s.destroy())), close(server))
)

const portsAt = (port: number, connectTimeout: Duration.Input) =>
  Layer.mergeAll(SqlPorts.layer, SqlPortalPorts.layer).pipe(Layer.provide(PgLive.layer({ url: `postgres://postgres@127.0.0.1:${port}/forms`, connectTimeout })))

/** Every port method answers Unavailable, and quickly. */
const everyPortUnavailable = Effect.gen(function*() {
  const started = Date.now()
  const errors = yield* Effect.all([
    Effect.flip(Effect.flatMap(FormSchemas, (s) => s.findByToken("tok-0000000000000000"))),
    Effect.flip(Effect.flatMap(Submissions, (s) => s.findInSchema("fs", "00000000-0000-4000-8000-000000000000"))),
    Effect.flip(Effect.flatMap(Submissions, (s) => s.createOrGet({
      schema_id: "fs", idempotency_key: "k".repeat(16), event_id: null, subject_id: null, values: {}, language: "en"
    }))),
    Effect.flip(Effect.flatMap(RateLimiter, (l) => l.hit("key", 10, 1000))),
    Effect.flip(Effect.flatMap(RateLimiter, (l) =>
      l.hitForSubmission("key", 10, 1000, { schema_id: "fs", id: "00000000-0000-4000-8000-000000000000" }))),
    Effect.flip(Effect.flatMap(Outbox, (o) => o.claim(10, { leaseMs: 60_000, maxAttempts: 10 }))),
    Effect.flip(Effect.flatMap(Engagements, (e) => e.findByToken("ptok-0000000000000000"))),
    Effect.flip(Effect.flatMap(Engagements, (e) => e.createAdvanceDraft({
      engagement_id: "en", schema_id: "fs", subject_id: "ma", event_id: "ev", created_at: 0
    }))),
    Effect.flip(Effect.flatMap(Engagements, (e) => e.submitSection({
      engagement_id: "en", section_id: "as", schema_id: "fs", draft_id: "00000000-0000-4000-8000-000000000000",
      expected_version: 1, values: {}, submitted_at: 0, event: { type: "section.submitted", payload: {} }
    }))),
    Effect.flip(Effect.flatMap(ValueTargets, (t) => t.apply({ engagement_id: "en", artist: {}, engagement: {} }))),
    Effect.flip(Effect.flatMap(Enrichment, (e) => e.linkContact({
      organisation_id: "org", key: "a@b.nl", submission_id: "00000000-0000-4000-8000-000000000000"
    }))),
    Effect.flip(Effect.flatMap(SchemaCatalog, (c) => c.findById("fs")))
  ], { concurrency: "unbounded" })
  return { tags: errors.map((e) => e._tag), elapsed: Date.now() - started }
})

describe("a database that cannot be reached answers Unavailable, never a hang or a defect", () => {
  it.live("connection refused: Unavailable at once", () =>
    Effect.gen(function*() {
      const port = yield* closedPort
      const { tags, elapsed } = yield* everyPortUnavailable.pipe(Effect.provide(portsAt(port, "5 seconds")))
      expect(tags).toEqual(Array.from({ length: 12 }, () => "Unavailable"))
      expect(elapsed).toBeLessThan(2_000)
    }))

  // Statements share connections (PgLive's multiplex): the pool opens one connection per 8 waiting statements,
  // and each attempt that times out fails one of them. So with up to 8 waiting the attempts run one after another:
  // the last of the 12 calls fails after about 10 connect timeouts (5 s measured), never later than 12.
  it.live("a server that never answers: Unavailable, each call after at most one connect timeout per waiting call", () =>
    Effect.gen(function*() {
      const { port } = yield* blackHole
      const { tags, elapsed } = yield* everyPortUnavailable.pipe(Effect.provide(portsAt(port, "500 millis")))
      expect(new Set(tags)).toEqual(new Set(["Unavailable"]))
      expect(elapsed).toBeLessThan(12 * 500 + 2_000)
    }), 15_000)
})

describe("the LISTEN signal never fails the server", () => {
  it.live("an unreachable server: the layer builds after the connect timeout, and wakes in process meanwhile", () =>
    Effect.gen(function*() {
      const port = yield* closedPort
      const started = Date.now()
      const woke = yield* Effect.gen(function*() {
        const signal = yield* OutboxSignal
        yield* signal.notify
        return yield* signal.wait(1_000)
      }).pipe(Effect.provide(SqlOutboxSignal.layer({
        url: `postgres://postgres@127.0.0.1:${port}/forms`, connectTimeout: "300 millis", reconnectDelay: "50 millis"
      })))
      expect(woke).toBe(true)
      expect(Date.now() - started).toBeLessThan(2_000)
    }))
})
