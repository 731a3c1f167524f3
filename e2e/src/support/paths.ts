/** Where things are, and the knobs the e2e suites read from the environment. */
import { fileURLToPath } from "node:url"

export const e2eDir = fileURLToPath(new URL("../..", import.meta.url))
export const repoRoot = fileURLToPath(new URL("../../..", import.meta.url))
export const fixturePath = fileURLToPath(new URL("../../fixture.json", import.meta.url))

/** CI sets it to a fresh database on the shared server; our own databases go beside it. */
export const testDatabaseUrl: string | undefined = process.env["TEST_DATABASE_URL"] || undefined

const positiveInt = (name: string, fallback: number): number => {
  const raw = process.env[name]
  const n = raw === undefined || raw.trim() === "" ? fallback : Number(raw)
  return Number.isSafeInteger(n) && n > 0 ? n : fallback
}

/** fast-check runs per route in the abuse suite. */
export const abuseRuns = positiveInt("ABUSE_RUNS", 5000)
/**
 * Runs per route of forms, submissions out and webhooks: other methods delete the route's own resources
 * early in a run (later requests mostly meet a 404), so past a few thousand runs more of them test little
 * and cost CI minutes.
 */
export const abuseOrganiserRuns = positiveInt("ABUSE_ORGANISER_RUNS", Math.min(abuseRuns, 2000))
/** Requests in flight at once during the abuse runs. */
export const abuseConcurrency = positiveInt("ABUSE_CONCURRENCY", 16)

/** The tokens and ids of e2e/fixture.json. */
export const fx = {
  loadToken: "e2e-load-token-0000000001",
  loadSchema: "fs-e2e-load",
  regexToken: "e2e-regex-token-000000001",
  closedToken: "e2e-closed-token-00000001",
  unpublishedToken: "e2e-draft-token-000000001",
  /** The previous token of a schema rotated long past the grace window. */
  rotatedOutToken: "e2e-rotated-token-previous",
  advanceToken: "e2e-advance-token-0000001",
  portalToken: "e2e-portal-token-00000001",
  portalGoneToken: "e2e-portal-gone-000000001",
  portalSections: ["as-e2e-tech", "as-e2e-hosp", "as-e2e-travel"],
  loadSlugs: ["full_name", "email", "shirt", "roles", "hours", "note"],
  regexSlugs: ["code", "phone", "born", "site", "ok"]
} as const
