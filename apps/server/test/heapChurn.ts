/**
 * Run as a child process by heapLimits.test.ts: allocates like a busy server (short-lived garbage, a
 * rolling window of objects that survive a while) on the event loop for ~2 s, with or without the
 * server's heap limits, then prints the largest young and old generation it saw, in MiB.
 */
import v8 from "node:v8"
import { applyHeapLimits } from "../src/heapLimits.js"

if (process.argv[2] === "limited") applyHeapLimits()

const spaceMb = (name: string): number =>
  (v8.getHeapSpaceStatistics().find((space) => space.space_name === name)?.space_size ?? 0) / 1024 / 1024

const window: Array<unknown> = []
let n = 0
let young = 0
let old = 0
const started = Date.now()
const step = () => {
  for (let i = 0; i < 2_000; i++) {
    const item = { id: n++, tags: ["a", "b", String(n)], nested: { at: Date.now(), text: `value ${n}` } }
    if (n % 3 === 0) window.push(item)
  }
  if (window.length > 150_000) window.splice(0, 50_000)
  young = Math.max(young, spaceMb("new_space"))
  old = Math.max(old, spaceMb("old_space"))
  if (Date.now() - started < 2_500) setImmediate(step)
  else process.stdout.write(`${JSON.stringify({ young, old })}\n`)
}
step()
