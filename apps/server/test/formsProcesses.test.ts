/**
 * Two server processes on one PostgreSQL. "A change applies at once, on every process" (CONTRACT §12): a
 * pattern added through process A, then at once a value that breaks it saved through process B (whose schema
 * cache held the old rules a moment before) → 422, a hundred times in a row. And value applying (§5, §6): both
 * processes' dispatchers handle the section events of submits made on both, racing; the advance and the profile
 * end with what the last submits hold.
 */
import { describe, expect, it } from "vitest"
import { type ChildProcess, execFileSync, spawn } from "node:child_process"
import { createHash } from "node:crypto"
import { fileURLToPath } from "node:url"
import { fixturePath, testDatabaseUrl } from "./harness.js"

const serverDir = fileURLToPath(new URL("..", import.meta.url))
const tsxBin = fileURLToPath(new URL("../node_modules/.bin/tsx", import.meta.url))

const start = (env: Record<string, string>) => {
  const child: ChildProcess = spawn(tsxBin, ["--conditions=@forms/source", "src/main.ts"], {
    cwd: serverDir,
    env: { ...process.env, INIT_CWD: serverDir, LOG_LEVEL: "info", ...env },
    stdio: ["ignore", "pipe", "pipe"]
  })
  let stdout = ""
  child.stdout?.on("data", (chunk) => (stdout += String(chunk)))
  child.stderr?.on("data", () => {})
  const address = async (): Promise<string> => {
    const deadline = Date.now() + 90_000
    while (Date.now() < deadline) {
      for (const line of stdout.split("\n").filter((l) => l.startsWith("{"))) {
        const parsed = JSON.parse(line) as { message?: string; annotations?: Record<string, string> }
        if (parsed.message === "listening" && parsed.annotations?.["address"] !== undefined) return parsed.annotations["address"]
      }
      if (child.exitCode !== null) break
      await new Promise((r) => setTimeout(r, 100))
    }
    throw new Error(`the server did not start:\n${stdout}`)
  }
  const stop = () => new Promise<void>((resolve) => {
    if (child.exitCode !== null) return resolve()
    child.on("exit", () => resolve())
    child.kill("SIGTERM")
  })
  return { address, stop }
}

const psql = (url: string, command: string) => execFileSync("psql", [url, "-v", "ON_ERROR_STOP=1", "-qAtc", command], { encoding: "utf8" })

if (testDatabaseUrl === undefined) {
  describe("a form change on two server processes", () => {
    it.skip("skipped: set TEST_DATABASE_URL to run", () => {})
  })
} else {
  const adminUrl = testDatabaseUrl
  describe("a form change on two server processes", () => {
    it("a regex added through A refuses a breaking save through B right after the answer, 100 times in a row", async () => {
      const database = `forms_processes_${Date.now()}_${Math.floor(Math.random() * 1e6)}`
      psql(adminUrl, `CREATE DATABASE ${database}`)
      const url = new URL(adminUrl)
      url.pathname = `/${database}`
      const env = { PORT: "0", DATABASE_URL: url.toString(), FIXTURE_FILE: fixturePath, WRITE_RATE_LIMIT_PER_HOUR: "100000", ADMIN_RATE_LIMIT_PER_MINUTE: "100000" }
      const a = start(env)
      const b = start(env)
      try {
        const [baseA, baseB] = await Promise.all([a.address(), b.address()])
        const key = `fok_${"p".repeat(40)}${Date.now()}`
        const hash = createHash("sha256").update(key, "utf8").digest("hex")
        psql(url.toString(), `INSERT INTO api_keys (organisation_id, name, key_hash, prefix) VALUES ('org-t', 'processes', '${hash}', '${key.slice(0, 8)}')`)
        const admin = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
          fetch(baseA + path, {
            method,
            headers: { authorization: `Bearer ${key}`, "content-type": "application/json", ...headers },
            ...(body === undefined ? {} : { body: JSON.stringify(body) })
          })
        const definition = (pattern: string | null) => ({
          name: "Two processes",
          type: "registration",
          event_id: "ev-t",
          status: "published",
          fields: [{ id: "nick", slug: "nickname", label: "Nickname", type: "text", validation_rules: pattern === null ? null : { regex: pattern } }]
        })
        const created = await admin("POST", "/admin/forms", definition("^x0$"))
        expect(created.status).toBe(201)
        const form = ((await created.json()) as { data: { id: string; public_token: string } }).data
        const draft = await fetch(`${baseB}/public/forms/${form.public_token}/submissions`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ idempotency_key: `two-processes-${Date.now()}-key` })
        })
        expect(draft.status).toBe(201)
        const draftId = ((await draft.json()) as { data: { id: string } }).data.id
        const saveOnB = (nickname: string) =>
          fetch(`${baseB}/public/forms/${form.public_token}/submissions/${draftId}`, {
            method: "PUT",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({ values: { nickname } })
          }).then(async (r) => ({ status: r.status, text: await r.text() }))

        const outcomes: Array<number> = []
        for (let i = 1; i <= 100; i++) {
          // B has just used the rules of revision i (its cache holds them)...
          const warm = await saveOnB(`x${i - 1}`)
          expect(`${i}: ${warm.status} ${warm.text}`).toBe(`${i}: 200 ${warm.text}`)
          // ...A changes the pattern...
          const put = await admin("PUT", `/admin/forms/${form.id}`, definition(`^x${i}$`), { "if-match": `"${i}"` })
          expect(put.status).toBe(200)
          // ...and right after A's answer, a value only the old pattern allowed is refused by B.
          const refused = await saveOnB(`x${i - 1}`)
          outcomes.push(refused.status)
          expect(refused.text).toContain('"rule":"regex"')
        }
        expect(outcomes).toEqual(Array(100).fill(422))
        // The submit path too: a required-by-pattern value checked against the fresh rules.
        expect((await saveOnB("x100")).status).toBe(200)
        expect((await admin("PUT", `/admin/forms/${form.id}`, definition("^y$"), { "if-match": '"101"' })).status).toBe(200)
        const submit = await fetch(`${baseB}/public/forms/${form.public_token}/submissions/${draftId}/submit`, { method: "POST" })
        expect(submit.status).toBe(422)
        // And a create with values: B validated "y" a moment ago; A's change answers; B refuses it.
        const create = (n: number, nickname: string) =>
          fetch(`${baseB}/public/forms/${form.public_token}/submissions`, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({ idempotency_key: `two-processes-create-${n}-${Date.now()}`, values: { nickname } })
          })
        expect((await create(1, "y")).status).toBe(201)
        expect((await admin("PUT", `/admin/forms/${form.id}`, definition("^z$"), { "if-match": '"102"' })).status).toBe(200)
        expect((await create(2, "y")).status).toBe(422)
      } finally {
        await Promise.all([a.stop(), b.stop()])
        psql(adminUrl, `DROP DATABASE IF EXISTS ${database}`)
      }
    }, 300_000)

    it("30 rounds of section submits on both processes: the applied values end as the last submits hold them", async () => {
      const database = `forms_processes_values_${Date.now()}_${Math.floor(Math.random() * 1e6)}`
      psql(adminUrl, `CREATE DATABASE ${database}`)
      const url = new URL(adminUrl)
      url.pathname = `/${database}`
      const env = { PORT: "0", DATABASE_URL: url.toString(), FIXTURE_FILE: fixturePath, PORTAL_RATE_LIMIT_PER_MINUTE: "100000" }
      const a = start(env)
      const b = start(env)
      try {
        const [baseA, baseB] = await Promise.all([a.address(), b.address()])
        const submit = (base: string, section: string, values: Record<string, unknown>) =>
          fetch(`${base}/p/artist/test-portal-token-0001/sections/${section}`, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({ values })
          }).then((r) => r.status)
        const rounds = 30
        for (let i = 1; i <= rounds; i++) {
          const day = String(1 + (i % 28)).padStart(2, "0")
          // Travel through one process, hospitality through the other, at once: their events race on both dispatchers.
          const [travel, hospitality] = await Promise.all([
            submit(i % 2 === 0 ? baseA : baseB, "as-travel", { arrival: `2027-08-${day}`, travel_notes: `notes ${i}` }),
            submit(i % 2 === 0 ? baseB : baseA, "as-hosp", { dietary: `diet ${i}`, guests: i % 11 })
          ])
          expect([i, travel, hospitality]).toEqual([i, 200, 200])
        }
        const deadline = Date.now() + 60_000
        while (psql(url.toString(), "SELECT count(*) FROM outbox WHERE delivered_at IS NULL AND dead_at IS NULL").trim() !== "0") {
          if (Date.now() > deadline) throw new Error("the section events were not all handled within 60 s")
          await new Promise((r) => setTimeout(r, 200))
        }
        expect(psql(url.toString(), "SELECT count(*) FROM outbox WHERE dead_at IS NOT NULL").trim()).toBe("0")
        const applied = JSON.parse(psql(url.toString(),
          "SELECT json_build_object('advance', en.advance, 'profile', a.profile) FROM engagements en JOIN master_artists a ON a.id = en.master_artist_id WHERE en.id = 'eng-1'")) as
          { advance: Record<string, unknown>; profile: Record<string, unknown> }
        const lastDay = String(1 + (rounds % 28)).padStart(2, "0")
        expect(applied.advance).toMatchObject({ arrival_date: `2027-08-${lastDay}`, guests: rounds % 11 })
        expect(applied.profile).toMatchObject({ travel_notes: `notes ${rounds}`, dietary: `diet ${rounds}` })
      } finally {
        await Promise.all([a.stop(), b.stop()])
        psql(adminUrl, `DROP DATABASE IF EXISTS ${database}`)
      }
    }, 300_000)
  })
}
