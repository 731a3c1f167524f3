import { Pool } from "undici"
import { processCpuMs } from "../src/cpu.js"
const [, , base, pidText, path, method = "GET", body] = process.argv
const pid = Number(pidText)
const pool = new Pool(base!, { connections: 64, pipelining: 1 })
let n = 0, stop = false
const loop = async () => { while (!stop) { const r = await pool.request({ path: path!, method: method as any, headers: body ? { "content-type": "application/json" } : {}, body }); await r.body.text(); n++ } }
const run = async (ms: number) => { stop = false; n = 0; const ls = Array.from({ length: 64 }, loop); await new Promise(r => setTimeout(r, ms)); stop = true; await Promise.all(ls); return n }
await run(2000)
const c0 = processCpuMs(pid); const t0 = Date.now()
const count = await run(5000)
const c1 = processCpuMs(pid)
console.log(path, method, `${(count / ((Date.now() - t0) / 1000)).toFixed(0)} req/s`, `${((c1 - c0) * 1000 / count).toFixed(0)} µs cpu/req`)
await pool.close()
