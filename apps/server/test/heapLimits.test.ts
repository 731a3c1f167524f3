/** The server's heap limits (src/heapLimits.ts), measured in child processes that allocate like a busy server. */
import { describe, expect, it } from "vitest"
import { execFile } from "node:child_process"
import { fileURLToPath } from "node:url"
import { promisify } from "node:util"

const serverDir = fileURLToPath(new URL("..", import.meta.url))
const tsxBin = fileURLToPath(new URL("../node_modules/.bin/tsx", import.meta.url))

const churn = async (mode: "limited" | "plain", nodeOptions = "") => {
  const { stdout } = await promisify(execFile)(tsxBin, ["--conditions=@forms/source", "test/heapChurn.ts", mode], {
    cwd: serverDir,
    env: { ...process.env, NODE_OPTIONS: nodeOptions }
  })
  return JSON.parse(stdout.trim().split("\n").at(-1) ?? "{}") as { readonly young: number; readonly old: number }
}

describe("heap limits", () => {
  it("the young generation stops at 32 MiB and the old one stays far below V8's default growth", async () => {
    const plain = await churn("plain")
    const limited = await churn("limited")
    // Without limits the same allocations grow both (else this test could not fail).
    expect(plain.young).toBeGreaterThan(32)
    expect(limited.young).toBeLessThanOrEqual(32)
    expect(limited.old).toBeLessThan(plain.old * 0.75)
  })

  it("a semi-space flag of the operator's wins over the young generation's limit", async () => {
    const operator = await churn("limited", "--max-semi-space-size=64")
    expect(operator.young).toBeGreaterThan(32)
  })
})
