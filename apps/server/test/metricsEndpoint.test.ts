/**
 * METRICS_PORT, on a server process under a short load: GET /metrics on its own port (404 elsewhere on it, and
 * /metrics not on the public port), counts equal to the requests sent by method, route template and status, the
 * submit counter and the rate-limit refusals, no token, id, email or key anywhere in the exposition, and
 * `promtool check metrics` content with it.
 */
import { afterAll, describe, expect, it } from "vitest"
import { spawnSync } from "node:child_process"
import { join } from "node:path"
import { contactForm, fixtureWithKey, killAll, openForm, startServer, submitForm, tempDir } from "./operationsSupport.js"

afterAll(killAll)

const promtool = spawnSync("promtool", ["--version"], { encoding: "utf8" })
const hasPromtool = promtool.error === undefined && promtool.status === 0

interface Sample { readonly name: string; readonly labels: Readonly<Record<string, string>>; readonly value: number }

/** The exposition's samples (the format's `name{label="value",…} number` lines). */
const samples = (text: string): ReadonlyArray<Sample> =>
  text.split("\n").filter((line) => line !== "" && !line.startsWith("#")).map((line) => {
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line)
    if (match === null) throw new Error(`not a sample line: ${line}`)
    const labels: Record<string, string> = {}
    for (const pair of (match[2] ?? "").matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) labels[pair[1] ?? ""] = pair[2] ?? ""
    return { name: match[1] ?? "", labels, value: Number(match[3]) }
  })

const value = (all: ReadonlyArray<Sample>, name: string, labels: Record<string, string> = {}): number | undefined =>
  all.find((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))?.value

const requests = (all: ReadonlyArray<Sample>, method: string, route: string, status: number) =>
  value(all, "http_server_request_duration_seconds_count", {
    http_request_method: method,
    http_route: route,
    http_response_status_code: String(status)
  })

describe("the metrics endpoint", () => {
  it("counts the requests sent by route template and status, holds no token, id or value, and passes promtool", async () => {
    const dataDir = join(tempDir("forms-metrics-"), "data")
    const server = startServer({
      DATA_DIR: dataDir,
      FIXTURE_FILE: fixtureWithKey(),
      METRICS_PORT: "0",
      SUBMIT_RATE_LIMIT_PER_HOUR: "3"
    })
    try {
      const metricsUrl = (await server.waitFor("metrics listening"))["address"] ?? ""
      const base = (await server.waitFor("listening"))["address"] ?? ""
      expect(metricsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/)

      const unknownToken = `unknown-token-${Date.now()}-abcdef`
      const secrets: Array<string> = ["test-open-token-0001", "test-contact-token-0001", unknownToken]
      const sent = async (path: string, init: RequestInit = {}) => (await fetch(base + path, init)).arrayBuffer()
      for (let i = 0; i < 20; i++) await sent(openForm)
      for (let i = 0; i < 7; i++) await sent(`/public/forms/${unknownToken}-${i}`)
      for (let i = 0; i < 5; i++) await sent(`/no/such/path/${unknownToken}`)
      for (let i = 0; i < 3; i++) await sent(openForm, { method: "DELETE" })
      const statuses: Array<number> = []
      for (let i = 0; i < 4; i++) {
        const key = `metrics-${Date.now()}-${i}-0123456789abcdef`
        const email = `metrics.person.${i}@example.org`
        const { status, id } = await submitForm(base, contactForm, key, { email, interest: null })
        statuses.push(status)
        secrets.push(key, email, id)
      }
      expect(statuses).toEqual([200, 200, 200, 429])
      // /metrics is never on the public port, and the metrics port serves nothing else.
      expect((await fetch(`${base}/metrics`)).status).toBe(404)
      expect((await fetch(metricsUrl.replace(/\/metrics$/, "/"))).status).toBe(404)
      expect((await fetch(metricsUrl, { method: "POST" })).status).toBe(404)

      const response = await fetch(metricsUrl)
      expect(response.status).toBe(200)
      expect(response.headers.get("content-type")).toBe("text/plain; version=0.0.4; charset=utf-8")
      const text = await response.text()
      const all = samples(text)

      expect(requests(all, "GET", "/public/forms/:token", 200)).toBe(20)
      expect(requests(all, "GET", "/public/forms/:token", 404)).toBe(7)
      // The five unknown paths and the /metrics asked of the public port.
      expect(requests(all, "GET", "unmatched", 404)).toBe(6)
      expect(requests(all, "DELETE", "/public/forms/:token", 405)).toBe(3)
      expect(requests(all, "POST", "/public/forms/:token/submissions", 201)).toBe(4)
      expect(requests(all, "POST", "/public/forms/:token/submissions/:submissionId/submit", 200)).toBe(3)
      expect(requests(all, "POST", "/public/forms/:token/submissions/:submissionId/submit", 429)).toBe(1)
      // Every request above is counted once, and nothing else is.
      const counted = all.filter((s) => s.name === "http_server_request_duration_seconds_count").reduce((n, s) => n + s.value, 0)
      expect(counted).toBe(20 + 7 + 6 + 3 + 4 + 4)

      expect(value(all, "forms_submissions_submitted_total")).toBe(3)
      expect(value(all, "forms_rate_limit_refusals_total", { policy: "submit" })).toBe(1)
      expect(value(all, "forms_rate_limit_refusals_total", { policy: "write" })).toBe(0)
      expect(value(all, "forms_webhook_attempts_total", { outcome: "failure" })).toBe(0)
      expect(value(all, "forms_outbox_events", { state: "dead" })).toBe(0)
      expect(value(all, "forms_outbox_events", { state: "pending" })).toBeGreaterThanOrEqual(0)
      expect(value(all, "forms_outbox_oldest_pending_age_seconds")).toBeGreaterThanOrEqual(0)
      expect(value(all, "forms_db_pool_connections", { state: "open" })).toBe(1)
      // Messages by status: the fixture's forms ask for none, so every status is there, at 0.
      for (const status of ["held", "pending", "sent", "failed"]) expect(value(all, "forms_messages", { status }), status).toBe(0)
      for (const name of ["process_cpu_seconds_total", "process_resident_memory_bytes", "nodejs_heap_size_used_bytes", "nodejs_eventloop_lag_p99_seconds"]) {
        expect(value(all, name), name).toBeGreaterThanOrEqual(0)
      }

      // No label, and nothing else in the exposition, holds what the requests carried.
      for (const secret of secrets) expect(text).not.toContain(secret)
      expect(text).not.toContain("example.org")
      expect(text).not.toContain("127.0.0.1")

      if (hasPromtool) {
        const checked = spawnSync("promtool", ["check", "metrics"], { input: text, encoding: "utf8" })
        expect(`${checked.stdout}${checked.stderr}`).toBe("")
        expect(checked.status).toBe(0)
      }
    } finally {
      expect(await server.stop()).toBe(0)
    }
  }, 240_000)

  if (!hasPromtool) {
    it.skip("promtool check metrics: skipped, promtool is not installed (Debian's prometheus package)", () => {})
  }
})
