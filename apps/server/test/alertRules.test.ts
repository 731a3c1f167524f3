/**
 * docs/operations.md's alert rules and scrape configuration are what Prometheus accepts: `promtool check rules` on
 * the rules block, `promtool check config` on the scrape configuration with those rules beside it. Skipped, with a
 * message, only when promtool is not installed (Debian's prometheus package).
 */
import { describe, expect, it } from "vitest"
import { spawnSync } from "node:child_process"
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join, resolve } from "node:path"
import { fileURLToPath } from "node:url"

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..", "..")
const doc = readFileSync(join(root, "docs", "operations.md"), "utf8")

/** The yaml block whose first line is the comment `# <name>`. */
const block = (name: string): string => {
  const found = [...doc.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => m[1] ?? "").find((b) => b.startsWith(`# ${name}\n`))
  if (found === undefined) throw new Error(`docs/operations.md has no yaml block starting with "# ${name}"`)
  return found
}

const promtool = spawnSync("promtool", ["--version"], { encoding: "utf8" })
const hasPromtool = promtool.error === undefined && promtool.status === 0

describe("docs/operations.md's Prometheus configuration", () => {
  it("holds the three alert rules: outbox lag, dead events, webhook failure rate", () => {
    const rules = block("forms-alerts.yml")
    expect([...rules.matchAll(/- alert: (\w+)/g)].map((m) => m[1])).toEqual([
      "FormsOutboxLagging", "FormsDeadEvents", "FormsWebhookFailureRate"
    ])
    for (const metric of ["forms_outbox_oldest_pending_age_seconds", "forms_outbox_events", "forms_webhook_attempts_total"]) {
      expect(rules).toContain(metric)
    }
  })

  it.runIf(hasPromtool)("passes promtool check rules and check config", () => {
    const dir = mkdtempSync(join(tmpdir(), "forms-promtool-"))
    writeFileSync(join(dir, "forms-alerts.yml"), block("forms-alerts.yml"))
    writeFileSync(join(dir, "prometheus.yml"), block("prometheus.yml"))
    const rules = spawnSync("promtool", ["check", "rules", join(dir, "forms-alerts.yml")], { encoding: "utf8" })
    expect(rules.status, `${rules.stdout}${rules.stderr}`).toBe(0)
    expect(rules.stdout).toContain("SUCCESS: 3 rules found")
    const config = spawnSync("promtool", ["check", "config", join(dir, "prometheus.yml")], { encoding: "utf8" })
    expect(config.status, `${config.stdout}${config.stderr}`).toBe(0)
  })

  if (!hasPromtool) {
    it.skip("promtool check rules and config: skipped, promtool is not installed (Debian's prometheus package)", () => {})
  }
})
