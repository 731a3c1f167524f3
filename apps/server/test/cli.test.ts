import { assert, layer } from "@effect/vitest"
import { Console, Effect, Exit } from "effect"
import { SqlClient } from "effect/sql"
import { Enrichment, EventHandlers, onSubmissionSubmitted } from "@forms/domain"
import { commands } from "../src/index.js"
import { backends, reportSkippedPostgres } from "./backends.js"
import { call, dataOf, envelope, eventually, liveOptions, testConfig, testServer } from "./harness.js"

const env = { PUBLIC_BASE_URL: "https://portal.example.org/" }
const config = testConfig(env)

/** Runs a CLI command in this process, against the test server's database; its stdout lines. */
const run = (name: string, ...args: ReadonlyArray<string>) =>
  Effect.gen(function*() {
    const lines: Array<string> = []
    const console: Console.Console = Object.assign(Object.create(globalThis.console), {
      log: (...parts: ReadonlyArray<unknown>) => lines.push(parts.map(String).join(" "))
    })
    const command = commands[name]
    if (command === undefined) return assert.fail(`no command ${name}`)
    const exit = yield* Effect.exit(command.run(args, config).pipe(Effect.provideService(Console.Console, console)))
    return { lines, exit }
  })

const messageOf = (exit: Exit.Exit<unknown, unknown>): string => {
  if (Exit.isSuccess(exit)) return ""
  const error = exit.cause.reasons.map((r) => ("error" in r ? r.error : undefined)).find((e) => e !== undefined)
  return typeof error === "object" && error !== null && "message" in error ? String(error.message) : ""
}

// A handler that fails while `failing` holds: the event goes dead, then `events retry` brings it back.
let failing = true
const FlakyHandler = EventHandlers.register(Effect.succeed(onSubmissionSubmitted("test-flaky", () =>
  failing ? Effect.fail(new Error("forced failure")) : Effect.void
)))
// A fast round: dead after the third failure, a few hundred milliseconds.
const dispatcher = { pollIntervalMs: 200, backoff: { baseMs: 50, capMs: 200, jitter: 0, maxAttempts: 3 } }

const outboxRow = (id: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<{ readonly dead: boolean; readonly delivered: boolean; readonly attempts: number }>`
      SELECT dead_at IS NOT NULL AS dead, delivered_at IS NOT NULL AS delivered, attempts FROM outbox WHERE id = ${id}::uuid`)

for (const backend of backends) {
  layer(testServer(backend, env, { handlers: [FlakyHandler], dispatcher }), liveOptions)(`CLI commands (${backend})`, (it) => {
    it.effect("portal-link prints a working URL once; the old link stops working", () =>
      Effect.gen(function*() {
        assert.strictEqual((yield* call("/p/artist/test-portal-cli-0001")).status, 200)
        const { lines, exit } = yield* run("portal-link", "eng-cli")
        assert.isTrue(Exit.isSuccess(exit), messageOf(exit))
        assert.strictEqual(lines.length, 2)
        const url = lines[1] ?? ""
        assert.match(url, /^https:\/\/portal\.example\.org\/p\/artist\/[A-Za-z0-9_-]{43}$/)
        const path = new URL(url).pathname
        const summary = yield* call(path)
        assert.strictEqual(summary.status, 200)
        assert.strictEqual((dataOf(summary)["engagement"] as Record<string, unknown>)["id"], "eng-cli")
        const old = yield* call("/p/artist/test-portal-cli-0001")
        assert.strictEqual(old.status, 404)
        assert.strictEqual(old.text, envelope("PORTAL_NOT_FOUND", "No portal has this token."))
        // Only the hash is stored.
        const token = path.split("/").at(-1) ?? ""
        const sql = yield* SqlClient.SqlClient
        const stored = yield* sql`SELECT portal_token_hash FROM engagements WHERE id = 'eng-cli'`
        assert.notInclude(JSON.stringify(stored), token)
        const again = yield* run("portal-link", "eng-cli")
        assert.strictEqual((yield* call(path)).status, 404)
        assert.strictEqual((yield* call(new URL(again.lines[1] ?? "").pathname)).status, 200)
        const missing = yield* run("portal-link", "eng-nope")
        assert.isTrue(Exit.isFailure(missing.exit))
        assert.strictEqual(messageOf(missing.exit), `No engagement has the id "eng-nope".`)
      }))

    it.effect("events dead lists a dead event without its values; events retry queues it and it is delivered", () =>
      Effect.gen(function*() {
        failing = true
        const form = "/public/forms/test-contact-token-0001"
        const created = yield* call(`${form}/submissions`, { method: "POST", body: { idempotency_key: "cli-events-0123456789abcdef" } })
        const submissionId = String(dataOf(created)["id"])
        const email = "secret.person@example.org"
        const submitted = yield* call(`${form}/submissions/${submissionId}/submit`, { method: "POST", body: { values: { email } } })
        assert.strictEqual(submitted.status, 200)

        const listed = yield* eventually(run("events", "dead"), (r) => r.lines.some((l) => l.includes("test-flaky")))
        assert.strictEqual(listed.lines[0], "id\ttype\tattempts\tlast_error")
        const line = listed.lines.find((l) => l.includes("test-flaky")) ?? ""
        const [id = "", type, attempts, lastError] = line.split("\t")
        assert.match(id, /^[0-9a-f-]{36}$/)
        assert.deepStrictEqual([type, attempts, lastError], ["submission.submitted", "3", "test-flaky: Error: forced failure"])
        assert.notInclude(listed.lines.join("\n"), email)
        assert.notInclude(listed.lines.join("\n"), "secret")

        failing = false
        const retried = yield* run("events", "retry", id)
        assert.isTrue(Exit.isSuccess(retried.exit), messageOf(retried.exit))
        assert.strictEqual(retried.lines[0], `Queued ${id} again: a running server delivers it within its poll interval.`)
        const delivered = yield* eventually(outboxRow(id), (rows) => rows[0]?.delivered === true)
        // Four attempts counted by their claims: three failed, the fourth (after the retry) delivered.
        assert.deepStrictEqual(delivered[0], { dead: false, delivered: true, attempts: 4 })
        const tags = yield* (yield* Enrichment).submissionTags(submissionId)
        assert.deepStrictEqual(tags, ["contact"])
        assert.deepStrictEqual((yield* run("events", "dead")).lines, ["No dead events."])

        for (const wrong of [id, "00000000-0000-4000-8000-000000000000", "not-a-uuid"]) {
          const again = yield* run("events", "retry", wrong)
          assert.isTrue(Exit.isFailure(again.exit))
          assert.strictEqual(messageOf(again.exit), `No dead event has the id ${JSON.stringify(wrong)}.`)
        }
        for (const args of [[], ["retry"], ["dead", "x"], ["nope"]]) {
          const usage = yield* run("events", ...args)
          assert.strictEqual(messageOf(usage.exit), "Usage: pnpm cli events dead | events retry <event_id>")
        }
      }))
  })
}

reportSkippedPostgres("CLI commands")
