/**
 * CONTRACT §16: on the embedded database the server process listens on its HTTP port and nothing else (no
 * TCP, UDP or Unix socket another process could reach PGlite through), and the CLI refuses the folder while
 * the server holds it. Linux only: the sockets are read from /proc.
 */
import { describe, expect, it } from "vitest"
import { type ChildProcess, spawn } from "node:child_process"
import { existsSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"

const serverDir = fileURLToPath(new URL("..", import.meta.url))
const tsxBin = fileURLToPath(new URL("../node_modules/.bin/tsx", import.meta.url))
const tsx = (script: string, args: ReadonlyArray<string>, env: Record<string, string>) =>
  spawn(tsxBin, ["--conditions=@forms/source", script, ...args], {
    cwd: serverDir,
    env: { ...process.env, INIT_CWD: serverDir, LOG_LEVEL: "info", ...env },
    stdio: ["ignore", "pipe", "pipe"]
  })

const finished = (child: ChildProcess) => {
  let stdout = ""
  let stderr = ""
  child.stdout?.on("data", (chunk) => (stdout += String(chunk)))
  child.stderr?.on("data", (chunk) => (stderr += String(chunk)))
  const done = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.on("exit", (code) => resolve({ code, stdout, stderr }))
  )
  return { done, stdout: () => stdout, stderr: () => stderr }
}

/** The process and every process below it (tsx runs the server in a child). */
const processTree = (root: number): ReadonlyArray<number> => {
  const parents = new Map<number, number>()
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8")
      parents.set(Number(entry), Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]))
    } catch {
      // Gone meanwhile.
    }
  }
  const tree = [root]
  for (let i = 0; i < tree.length; i++) {
    for (const [pid, parent] of parents) if (parent === tree[i]) tree.push(pid)
  }
  return tree
}

/** Inodes of the sockets the processes hold open. */
const socketInodes = (pids: ReadonlyArray<number>): Set<string> => {
  const inodes = new Set<string>()
  for (const pid of pids) {
    let fds: Array<string> = []
    try {
      fds = readdirSync(`/proc/${pid}/fd`)
    } catch {
      continue
    }
    for (const fd of fds) {
      try {
        const match = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`))
        if (match?.[1] !== undefined) inodes.add(match[1])
      } catch {
        // Closed meanwhile.
      }
    }
  }
  return inodes
}

const rows = (file: string): Array<Array<string>> =>
  existsSync(file) ? readFileSync(file, "utf8").trim().split("\n").slice(1).map((l) => l.trim().split(/\s+/)) : []

/** Every socket of `inodes` that accepts connections or datagrams: `tcp:<port>`, `udp:<port>`, `unix:<path>`. */
const listening = (inodes: Set<string>): Array<string> => {
  const found: Array<string> = []
  for (const protocol of ["tcp", "tcp6", "udp", "udp6"]) {
    for (const row of rows(`/proc/net/${protocol}`)) {
      const [, local = "", , state = "", , , , , , inode = ""] = row
      // TCP: LISTEN (0A); UDP: any bound socket (07, unconnected) receives from anyone.
      const open = protocol.startsWith("tcp") ? state === "0A" : state === "07"
      if (open && inodes.has(inode)) found.push(`${protocol.slice(0, 3)}:${parseInt(local.split(":")[1] ?? "", 16)}`)
    }
  }
  for (const row of rows("/proc/net/unix")) {
    const [, , , flags = "", , , inode = "", path = "(unnamed)"] = row
    // __SO_ACCEPTCON: a listening Unix socket.
    if ((parseInt(flags, 16) & 0x10000) !== 0 && inodes.has(inode)) found.push(`unix:${path}`)
  }
  return found.sort()
}

const waitForListening = async (run: ReturnType<typeof finished>, timeoutMs: number): Promise<string> => {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    const line = run.stdout().split("\n").find((l) => l.includes(`"message":"listening"`))
    if (line !== undefined) return (JSON.parse(line) as { annotations: { address: string } }).annotations.address
    await new Promise((r) => setTimeout(r, 100))
  }
  throw new Error(`not listening; stdout:\n${run.stdout()}\nstderr:\n${run.stderr()}`)
}

describe.runIf(process.platform === "linux")("the embedded database is reachable by no other process", () => {
  it("the server listens on its HTTP port only; the CLI refuses DATA_DIR while the server runs, and works after", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "forms-isolated-"))
    try {
      const server = tsx("src/main.ts", [], { PORT: "0", DATA_DIR: dataDir })
      const run = finished(server)
      const address = await waitForListening(run, 90_000)
      const port = Number(new URL(address).port)
      expect((await fetch(`${address}/health/ready`)).status).toBe(200)
      // The server is the process of the tree that holds the HTTP port (tsx, above it, keeps a pipe of its
      // own to its child: /tmp/tsx-<uid>/<pid>.pipe).
      const serving = processTree(server.pid ?? 0).filter((pid) => listening(socketInodes([pid])).includes(`tcp:${port}`))
      expect(serving).toHaveLength(1)
      expect(listening(socketInodes(serving))).toEqual([`tcp:${port}`])

      const refused = await finished(tsx("src/cli.ts", ["events", "dead"], { DATA_DIR: dataDir })).done
      expect(refused.code).toBe(1)
      expect(refused.stderr).toContain("is in use by process")
      expect(refused.stderr).toContain("only while the server is not running")
      // The server is untouched by the refused CLI.
      expect((await fetch(`${address}/health/ready`)).status).toBe(200)

      server.kill("SIGTERM")
      expect((await run.done).code).toBe(0)
      const after = await finished(tsx("src/cli.ts", ["events", "dead"], { DATA_DIR: dataDir })).done
      expect([after.code, after.stdout]).toEqual([0, "No dead events.\n"])
    } finally {
      rmSync(dataDir, { recursive: true, force: true })
    }
  }, 240_000)
})
