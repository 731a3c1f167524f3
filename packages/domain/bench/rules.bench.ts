/**
 * Our compiled rules beside Ajv 8 + ajv-formats on an equivalent JSON Schema: validations per second
 * (strict on 30 fields, relaxed on 10 sent fields; plain and null-prototype maps), and compile time
 * per form. Same process, interleaved rounds (the order alternates each round), CPU time, medians.
 * `pnpm bench`.
 */
import { Ajv, type ValidateFunction } from "ajv"
import addFormatsImport from "ajv-formats"
import { Bench } from "tinybench"
import { compileRules } from "../src/rules/compileRules.js"
import type { Validator } from "../src/rules/Validator.js"
import { clearPatternCache } from "../src/rules/regex.js"
import { fields, fieldsWithConditions, jsonSchema, relaxedMaps, strictMaps } from "./rulesBenchForm.js"

// ajv-formats is CommonJS: its default import is the plugin itself at run time.
type FormatsPlugin = (ajv: Ajv) => Ajv
const addFormats = ((addFormatsImport as unknown as { default?: FormatsPlugin }).default ??
  (addFormatsImport as unknown as FormatsPlugin))

// ---------------------------------------------------------------------------------------------
// Measuring.

// The use cases validate null-prototype copies (`pickSchemaValues`); a server parses plain objects.
const nullPrototype = (map: Record<string, unknown>): Record<string, unknown> =>
  Object.assign(Object.create(null) as Record<string, unknown>, map)
const strictMapsNp = strictMaps.map(nullPrototype)
const relaxedMapsNp = relaxedMaps.map(nullPrototype)

const ajv = new Ajv({ allErrors: true, strict: false })
addFormats(ajv)
const ajvStrict: ValidateFunction = ajv.compile(jsonSchema(true))
const ajvRelaxed: ValidateFunction = ajv.compile(jsonSchema(false))
const ours = compileRules(fields)

let sink = 0
type Maps = ReadonlyArray<Record<string, unknown>>
const passOurs = (validate: Validator, maps: Maps) => () => {
  for (const map of maps) if (validate(map).errors === undefined) sink++
}
const passAjv = (validate: ValidateFunction, maps: Maps) => () => {
  for (const map of maps) if (validate(map)) sink++
}

const median = (xs: ReadonlyArray<number>): number => {
  const sorted = [...xs].sort((a, b) => a - b)
  const mid = sorted.length >> 1
  return sorted.length % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2
}

// CPU time of this process, not wall time: other work on a shared machine then skews little.
const cpuNow = (): number => {
  const usage = process.cpuUsage()
  return (usage.user + usage.system) / 1000
}

/** Mean ms of one call of `fn` in a fresh tinybench run. */
const timeOnce = (name: string, fn: () => void, time: number): number => {
  const bench = new Bench({ time, iterations: 3, warmupTime: 20, warmupIterations: 1, now: cpuNow })
  bench.add(name, fn)
  bench.runSync()
  const result = bench.tasks[0]?.result
  if (result === undefined || !("latency" in result)) throw new Error(`${name} did not run`)
  return result.latency.mean
}

/** Interleaved rounds (the order alternates): median ms per call of each, and median of the per-round ratios b/a. */
const duel = (rounds: number, time: number, a: () => void, b: () => void) => {
  const ta: Array<number> = []
  const tb: Array<number> = []
  const ratios: Array<number> = []
  for (let round = 0; round < rounds; round++) {
    const first = round % 2 === 0 ? timeOnce("a", a, time) : timeOnce("b", b, time)
    const second = round % 2 === 0 ? timeOnce("b", b, time) : timeOnce("a", a, time)
    const [msA, msB] = round % 2 === 0 ? [first, second] : [second, first]
    ta.push(msA)
    tb.push(msB)
    ratios.push(msB / msA)
  }
  return { msA: median(ta), msB: median(tb), ratio: median(ratios) }
}

const agreement = (validate: Validator, check: ValidateFunction, maps: Maps) => {
  let same = 0
  let passed = 0
  for (const map of maps) {
    const mine = validate(map).errors === undefined
    if (mine) passed++
    if (mine === check(map)) same++
  }
  return { passed, agree: same / maps.length }
}

const fmt = (n: number): string => Math.round(n).toLocaleString("en-US")
const rounds = 9

const strictAgreement = agreement(ours.strict, ajvStrict, strictMaps)
const relaxedAgreement = agreement(ours.relaxed, ajvRelaxed, relaxedMaps)
console.log(`${fields.length}-field form; ${strictMaps.length} seeded value maps; ${rounds} interleaved rounds, CPU time, medians`)
console.log(
  `verdicts: strict ${strictAgreement.passed} pass, Ajv agrees on ${(strictAgreement.agree * 100).toFixed(1)}%;` +
    ` relaxed ${relaxedAgreement.passed} pass, Ajv agrees on ${(relaxedAgreement.agree * 100).toFixed(1)}%`
)

const cases: ReadonlyArray<readonly [string, Validator, ValidateFunction, Maps]> = [
  ["strict, 30 fields", ours.strict, ajvStrict, strictMaps],
  ["relaxed, 10 fields sent", ours.relaxed, ajvRelaxed, relaxedMaps],
  ["strict, null-prototype", ours.strict, ajvStrict, strictMapsNp],
  ["relaxed, null-prototype", ours.relaxed, ajvRelaxed, relaxedMapsNp]
]
for (const [label, mine, theirs, maps] of cases) {
  const { msA, msB, ratio } = duel(rounds, 250, passOurs(mine, maps), passAjv(theirs, maps))
  const perSecond = (ms: number) => (maps.length / ms) * 1000
  console.log(
    `${label.padEnd(24)} ours ${fmt(perSecond(msA)).padStart(9)}/s   Ajv ${fmt(perSecond(msB)).padStart(9)}/s   ratio ${
      ratio.toFixed(2)
    }×`
  )
}

// Compile time: ours builds strict and relaxed together; Ajv compiles one schema per call (a fresh
// copy, so its schema cache cannot answer), on one instance that already has the formats.
const schemaStrict = jsonSchema(true)
let compiled = 0
const compileOurs = () => {
  for (let i = 0; i < 100; i++) compiled += compileRules(fields).strict === undefined ? 0 : 1
}
const compileOursCold = () => {
  for (let i = 0; i < 100; i++) {
    clearPatternCache()
    compiled += compileRules(fields).strict === undefined ? 0 : 1
  }
}
const compileAjv = () => {
  compiled += ajv.compile(structuredClone(schemaStrict)) === undefined ? 0 : 1
}
const warm = duel(5, 200, compileOurs, compileAjv)
const cold = median(Array.from({ length: 5 }, () => timeOnce("cold", compileOursCold, 200)))
console.log(
  `compile, per form: ours strict+relaxed ${(warm.msA * 10).toFixed(1)} µs (patterns cached by the schema check),` +
    ` ${(cold * 10).toFixed(1)} µs from an empty pattern cache; Ajv strict ${(warm.msB * 1000).toFixed(0)} µs`
)
// Form logic: the strict check of the same form with ten conditions, against the form without them (target ≤ 1.5×).
const withLogic = compileRules(fieldsWithConditions)
let inactive = 0
for (const map of strictMapsNp) inactive += withLogic.strict(map).inactive?.length ?? 0
console.log(`form logic: ten conditions; ${(inactive / strictMapsNp.length).toFixed(1)} fields inactive per map on average`)
for (const [label, maps] of [["strict, plain objects", strictMaps], ["strict, null-prototype", strictMapsNp]] as const) {
  const { msA, msB, ratio } = duel(rounds, 250, passOurs(ours.strict, maps), passOurs(withLogic.strict, maps))
  const perSecond = (ms: number) => (maps.length / ms) * 1000
  console.log(
    `${label.padEnd(24)} without ${fmt(perSecond(msA)).padStart(9)}/s   with 10 conditions ${fmt(perSecond(msB)).padStart(9)}/s` +
      `   cost ${ratio.toFixed(2)}×`
  )
}

if (sink + compiled === -1) console.log(sink)
