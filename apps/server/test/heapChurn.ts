/**
 * Run as a child process by heapLimits.test.ts: allocates like a busy server (short-lived garbage, a
 * rolling window of objects that survive a while) on the event loop for 4 s, with or without the
 * server's heap limits, then prints, in MiB, the young generation's median size over the last 2 s (V8
 * lets it exceed its capacity for a moment while it marks the old generation) and the largest old one.
 */
import v8 from "node:v8"
import { applyHeapLimits } from "../src/heapLimits.js"

if (process.argv[2] === "limited") applyHeapLimits()

const spaceMb = (name: string): number =>
  (v8.getHeapSpaceStatistics().find((space) => space.space_name === name)?.space_size ?? 0) / 1024 / 1024

const window: Array<unknown> = []
let n = 0
const youngSamples: Array<number> = []
let old = 0
const started = Date.now()
const step = () => {
  for (let i = 0; i < 4_000; i++) {
    const item = { id: n++, tags: ["a", "b", String(n)], nested: { at: Date.now(), text: `value ${n}` } }
    if (n % 3 === 0) window.push(item)
  }
  if (window.length > 300_000) window.splice(0, 100_000)
  const elapsed = Date.now() - started
  if (elapsed > 2_000) youngSamples.push(spaceMb("new_space"))
  old = Math.max(old, spaceMb("old_space"))
  if (elapsed < 4_000) return setImmediate(step)
  const young = [...youngSamples].sort((a, b) => a - b)[Math.floor(youngSamples.length / 2)] ?? 0
  process.stdout.write(`${JSON.stringify({ young, old })}\n`)
}
step()
