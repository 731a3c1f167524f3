/**
 * The client limits as real clients meet them (CONTRACT §8): the write limit on create and save with its
 * place in the order of checks, client addresses compared in canonical form (IPv6 by /64), entries that
 * are not addresses ignored, exempt networks, and one budget for every server process sharing PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { Pool } from "undici"
import { type Backend, makeBackend } from "../support/backend.js"
import { dataOf, errorCodeOf } from "../support/envelope.js"
import { makePool, runConcurrently, send, type Outcome } from "../support/http.js"
import { type InProcessServer, startInProcess } from "../support/inProcessServer.js"
import { fx, testDatabaseUrl } from "../support/paths.js"
import { freePort, startServerProcess } from "../support/serverProcess.js"
import { createDatabase, dropDatabase, uniqueDatabaseName } from "../support/sql.js"

const writeLimit = 4
const forms = `/public/forms/${fx.loadToken}`
let backend: Backend
let server: InProcessServer
let pool: Pool

beforeAll(async () => {
  backend = await makeBackend("clientlimits")
  server = await startInProcess({
    TRUST_PROXY_HOPS: "1",
    WRITE_RATE_LIMIT_PER_HOUR: String(writeLimit),
    SUBMIT_RATE_LIMIT_PER_HOUR: "2",
    RATE_LIMIT_EXEMPT_NETWORKS: "198.51.100.0/24, 2001:db8:ee::/48"
  }, backend.url)
  pool = makePool(server.origin, 8)
})

afterAll(async () => {
  await pool?.close()
  await server?.close()
  await backend?.release()
})

const post = (path: string, body: unknown, from?: string, target: Pool = pool) =>
  send(target, {
    method: "POST",
    path,
    headers: { "content-type": "application/json", ...(from === undefined ? {} : { "x-forwarded-for": from }) },
    body: JSON.stringify(body)
  })
const put = (path: string, body: unknown, from: string, target: Pool = pool) =>
  send(target, { method: "PUT", path, headers: { "content-type": "application/json", "x-forwarded-for": from }, body: JSON.stringify(body) })

const statusOf = (outcome: Outcome) => (outcome._tag === "Answer" ? outcome.status : outcome.error)
const header = (outcome: Outcome, name: string) => (outcome._tag === "Answer" ? outcome.headers[name] : undefined)
const create = (from: string, key: string = crypto.randomUUID()) => post(`${forms}/submissions`, { idempotency_key: key }, from)

describe("the write limit (create and save together, per client per form)", () => {
  it("counts from the token step on: a replay counts, a 404 does not; its headers on every answer it counts", async () => {
    const from = "203.0.113.50"
    const key = crypto.randomUUID()
    const first = await create(from, key)
    const id = first._tag === "Answer" ? String(dataOf(first)?.["id"]) : ""
    const replay = await create(from, key)
    const unknownForm = await post("/public/forms/no-such-token-000000000/submissions", { idempotency_key: key }, from)
    const unknownDraft = await put(`${forms}/submissions/00000000-0000-4000-8000-000000000000`, { values: {} }, from)
    const saved = await put(`${forms}/submissions/${id}`, { values: { note: "hello" } }, from)
    const invalid = await put(`${forms}/submissions/${id}`, { values: { email: "not an email" } }, from)
    const refused = await put(`${forms}/submissions/${id}`, { values: { note: "again" } }, from)
    expect([first, replay, unknownForm, unknownDraft, saved, invalid, refused].map(statusOf)).toEqual([201, 200, 404, 404, 200, 422, 429])
    const policy = `"write";q=${writeLimit};w=3600`
    expect([first, replay, saved, invalid, refused].map((o) => header(o, "ratelimit-policy"))).toEqual(Array(5).fill(policy))
    expect([first, replay, saved, invalid, refused].map((o) => String(header(o, "ratelimit")).split(";t=")[0]))
      .toEqual([`"write";r=3`, `"write";r=2`, `"write";r=1`, `"write";r=0`, `"write";r=0`])
    expect([unknownForm, unknownDraft].map((o) => header(o, "ratelimit"))).toEqual([undefined, undefined])
    expect(header(saved, "retry-after")).toBeUndefined()
    expect(refused._tag === "Answer" ? errorCodeOf(refused) : refused.error).toBe("RATE_LIMITED")
    expect(Number(header(refused, "retry-after"))).toBeGreaterThan(3500)
    // The refused save wrote nothing.
    const rows = await server.query("select values->>'note' as note from submissions where id = $1", [id])
    expect(rows[0]?.["note"]).toBe("hello")
  })

  // Each row: spellings of one client (IPv6 by its /64). Each row gets one budget: `writeLimit` creates pass
  // whatever spelling they use, the next is 429.
  const rows: ReadonlyArray<readonly [string, ReadonlyArray<string>]> = [
    ["IPv4 and IPv4-mapped IPv6", ["192.0.2.10", "::ffff:192.0.2.10", "[::FFFF:192.0.2.10]:8443", "192.0.2.10:55000", "::ffff:c000:20a"]],
    ["IPv6 spellings", ["2001:db8:aa::1", "2001:DB8:AA::1", "2001:0db8:00aa:0000:0000:0000:0000:0001", "[2001:db8:aa::1]:443", "2001:db8:aa::1%eth0"]],
    ["one IPv6 /64", ["2001:db8:bb:1::1", "2001:db8:bb:1:ffff:ffff:ffff:ffff", "2001:db8:bb:1:1234::9", "[2001:db8:bb:1::abcd]"]],
    // Not addresses: ignored, so the socket's peer (127.0.0.1) is the client: one budget for all of them.
    ["entries that are not addresses", ["garbage", "x".repeat(6000), "unknown", "1.2.3.4.5", "2001:db8:::1", "<script>"]]
  ]
  for (const [what, spellings] of rows) {
    it(`${what}: one budget, never a 5xx`, async () => {
      const answers: Array<Outcome> = []
      for (let i = 0; i <= writeLimit; i++) answers.push(await create(spellings[i % spellings.length] ?? ""))
      expect(answers.map(statusOf)).toEqual([...Array(writeLimit).fill(201), 429])
    })
  }

  it("another /64 of the same /48 is another client", async () => {
    expect(statusOf(await create("2001:db8:bb:2::1"))).toBe(201)
  })
})

describe("RATE_LIMIT_EXEMPT_NETWORKS", () => {
  it("a registration desk in an exempt network passes 100 submits and 100 creates, with no RateLimit headers", async () => {
    for (const desk of ["198.51.100.20", "2001:db8:ee:5::20"]) {
      const created = await create(desk)
      const id = created._tag === "Answer" ? String(dataOf(created)?.["id"]) : ""
      const answers: Array<Outcome> = [created]
      await runConcurrently(100, 8, async () => {
        answers.push(await create(desk))
        // An invalid email: a rule-validation 422 that the submit limit (2 here) would count.
        answers.push(await post(`${forms}/submissions/${id}/submit`, { values: { email: "nope" } }, desk))
      })
      expect(answers.filter((a) => statusOf(a) === 429)).toEqual([])
      expect(answers.filter((a) => header(a, "ratelimit") !== undefined || header(a, "ratelimit-policy") !== undefined)).toEqual([])
      expect(new Set(answers.map(statusOf))).toEqual(new Set([201, 422]))
    }
  })
})

describe.skipIf(testDatabaseUrl === undefined)("two server processes sharing PostgreSQL", () => {
  /** Two servers on a fresh database of their own, a pool to each: `body(pools)` runs against both. */
  const onTwoServers = async (label: string, env: Record<string, string>, body: (pools: ReadonlyArray<Pool>) => Promise<void>) => {
    const server = testDatabaseUrl ?? ""
    const name = uniqueDatabaseName(label)
    const url = await createDatabase(server, name)
    const a = await startServerProcess({ databaseUrl: url, port: await freePort(), env })
    const b = await startServerProcess({ databaseUrl: url, port: await freePort(), env })
    const pools = [makePool(a.origin, 8), makePool(b.origin, 8)]
    try {
      await body(pools)
    } finally {
      await Promise.all(pools.map((p) => p.close()))
      await Promise.all([a.stop(), b.stop()])
      await dropDatabase(server, name)
    }
  }
  const either = (pools: ReadonlyArray<Pool>, i: number): Pool => pools[i % 2] as Pool

  it("share one write budget: of 40 concurrent creates from one client across both, exactly the limit pass", () =>
    onTwoServers("writeshared", { TRUST_PROXY_HOPS: "1", WRITE_RATE_LIMIT_PER_HOUR: "10" }, async (pools) => {
      const statuses: Array<number | string> = []
      await runConcurrently(40, 16, async (i) => {
        statuses.push(statusOf(await post(`${forms}/submissions`, { idempotency_key: crypto.randomUUID() }, "203.0.113.99", either(pools, i))))
      })
      expect(statuses.filter((s) => s === 201).length).toBe(10)
      expect(statuses.filter((s) => s === 429).length).toBe(30)
    }))

  // A save counts in the limiter's own statement, only when the submission exists (RateLimiter.hitForSubmission).
  it("saves share the budget too: of 40 concurrent saves of one draft across both, exactly the limit less the create pass", () =>
    onTwoServers("saveshared", { TRUST_PROXY_HOPS: "1", WRITE_RATE_LIMIT_PER_HOUR: "10" }, async (pools) => {
      const from = "203.0.113.98"
      const created = await post(`${forms}/submissions`, { idempotency_key: crypto.randomUUID() }, from, either(pools, 0))
      const id = created._tag === "Answer" ? String(dataOf(created)?.["id"]) : ""
      const statuses: Array<number | string> = []
      await runConcurrently(40, 16, async (i) => {
        statuses.push(statusOf(await put(`${forms}/submissions/${id}`, { values: { full_name: `Saver ${i}` } }, from, either(pools, i))))
      })
      expect(statuses.filter((s) => s === 200).length).toBe(9)
      expect(statuses.filter((s) => s === 429).length).toBe(31)
    }))

  // A submit without slots is one statement; a claim lost to the other server undoes it whole.
  it("one unique value submitted by 20 drafts at once across both: exactly one is submitted, the others answer 422 unique", () =>
    onTwoServers("uniqueshared", { TRUST_PROXY_HOPS: "1" }, async (pools) => {
      const email = `${crypto.randomUUID()}@example.org`
      const ids = await Promise.all(Array.from({ length: 20 }, async (_, i) => {
        const created = await post(`${forms}/submissions`, { idempotency_key: crypto.randomUUID() }, `10.77.0.${i + 1}`, either(pools, i))
        return created._tag === "Answer" ? String(dataOf(created)?.["id"]) : ""
      }))
      const answers = await Promise.all(ids.map((id, i) =>
        post(`${forms}/submissions/${id}/submit`, { values: { full_name: `Racer ${i}`, email } }, `10.77.0.${i + 1}`, either(pools, i + 1))))
      expect(answers.filter((a) => statusOf(a) === 200).length).toBe(1)
      const refused = answers.filter((a) => statusOf(a) !== 200)
      expect(refused.map(statusOf)).toEqual(Array.from({ length: 19 }, () => 422))
      for (const answer of refused) {
        expect(answer._tag === "Answer" ? JSON.parse(answer.text).error.fields.email[0].rule : undefined).toBe("unique")
      }
    }))
})
