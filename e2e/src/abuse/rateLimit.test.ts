/**
 * The submit limit holds per client: with no proxy trusted (TRUST_PROXY_HOPS=0), forged
 * X-Forwarded-For, Forwarded and X-Real-IP headers do not buy a fresh budget.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import fc from "fast-check"
import type { Pool } from "undici"
import { type Backend, makeBackend } from "../support/backend.js"
import { dataOf, errorCodeOf, errorProblem } from "../support/envelope.js"
import { makePool, runConcurrently, send, sendJson } from "../support/http.js"
import { type InProcessServer, startInProcess } from "../support/inProcessServer.js"
import { fx } from "../support/paths.js"

const limit = 3
let backend: Backend
let server: InProcessServer
let pool: Pool

const spoofing = fc.record({
  "x-forwarded-for": fc.array(fc.oneof(fc.ipV4(), fc.ipV6()), { minLength: 1, maxLength: 40 }).map((ips) => ips.join(", ")),
  "forwarded": fc.ipV4().map((ip) => `for=${ip};proto=https`),
  "x-real-ip": fc.ipV4(),
  "true-client-ip": fc.ipV4(),
  "cf-connecting-ip": fc.ipV4()
}, { requiredKeys: ["x-forwarded-for"] })

const draft = async (): Promise<string> => {
  const created = await sendJson(pool, "POST", `/public/forms/${fx.loadToken}/submissions`, {
    idempotency_key: crypto.randomUUID(),
    values: { full_name: "Rate Limited" }
  })
  const id = created._tag === "Answer" ? dataOf(created)?.["id"] : undefined
  if (typeof id !== "string") throw new Error(`no draft: ${JSON.stringify(created)}`)
  return id
}

beforeAll(async () => {
  backend = await makeBackend("ratelimit")
  server = await startInProcess({ SUBMIT_RATE_LIMIT_PER_HOUR: String(limit), TRUST_PROXY_HOPS: "0" }, backend.url)
  pool = makePool(server.origin, 8)
})

afterAll(async () => {
  await pool?.close()
  await server?.close()
  await backend?.release()
})

describe("the submit limit and forged client addresses", () => {
  it(`lets at most ${limit} submits through per hour, then 429, whatever X-Forwarded-For says`, async () => {
    const ids = [await draft(), await draft()]
    const forged = fc.sample(spoofing, { numRuns: 40, seed: 42 })
    const statuses: Array<number> = []
    const problems: Array<string> = []
    // Concurrently: the limiter must also count atomically.
    await runConcurrently(forged.length, 8, async (i) => {
      const id = ids[i % ids.length] ?? ""
      // An invalid email: a rule-validation 422 counts like a 200 (§8), so every submit reaches the limiter.
      const answer = await send(pool, {
        method: "POST",
        path: `/public/forms/${fx.loadToken}/submissions/${id}/submit`,
        headers: { "content-type": "application/json", ...forged[i] },
        body: JSON.stringify({ values: { email: "not-an-email" } })
      })
      if (answer._tag === "Failed") return void problems.push(answer.error)
      statuses.push(answer.status)
      const problem = errorProblem(answer)
      if (problem !== undefined) problems.push(problem)
      if (answer.status === 429) {
        if (errorCodeOf(answer) !== "RATE_LIMITED") problems.push(`429 with ${String(errorCodeOf(answer))}`)
        if (!/^\d+$/.test(String(answer.headers["retry-after"]))) problems.push("429 without Retry-After")
        if (!String(answer.headers["ratelimit-policy"]).includes(`q=${limit}`)) problems.push("429 without RateLimit-Policy")
      }
    })
    const passed = statuses.filter((s) => s !== 429)
    console.log(`rate limit: ${forged.length} submits with forged addresses: ${passed.length} passed (${passed.join(", ")}), ${statuses.length - passed.length} answered 429`)
    expect(problems).toEqual([])
    expect(passed.length).toBe(limit)
    expect(passed.every((s) => s === 422)).toBe(true)
    expect(statuses.length).toBe(forged.length)
  })
})
