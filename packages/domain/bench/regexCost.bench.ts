/**
 * What the worst pattern the cost budget admits costs: one save's relaxed validation of a body at the
 * §8 limits (256 KiB of values, the pattern on every field), in CPU ms, for families of patterns built
 * to keep as many instructions live as the budget allows, on inputs that keep them live. Also everyday
 * patterns on the same bodies, the refused reproduction of issue 30, and the definition check's own
 * cost on a form of 500 distinct worst patterns. `pnpm --filter @forms/domain bench:regex`.
 */
import { checkDefinition } from "../src/organiser/forms/checkDefinition.js"
import type { FormField } from "../src/forms/FormField.js"
import { compileRules } from "../src/rules/compileRules.js"
import { patternBudget, patternCost } from "../src/rules/patternCost.js"
import { clearPatternCache, patternProblem } from "../src/rules/regex.js"
import { RE2JS } from "re2js"

const bodyLimit = 262_144
const stringLimit = 10_000
const arrayLimit = 200
const rounds = Number(process.env["ROUNDS"] ?? 7)

const cpuMs = (run: () => void): number => {
  const before = process.cpuUsage()
  run()
  const used = process.cpuUsage(before)
  return (used.user + used.system) / 1000
}

// A fixed seed: every run measures the same inputs.
let seed = 20_261_124
const random = (): number => {
  seed = (seed * 1_103_515_245 + 12_345) & 0x7fffffff
  return seed / 0x7fffffff
}
const randomText = (alphabet: string, length: number): string => {
  const letters = [...alphabet]
  let text = ""
  for (let i = 0; i < length; i++) text += letters[Math.floor(random() * letters.length)]
  return text
}

const field = (i: number, regex: string, options: boolean): FormField => ({
  id: `f${i}`,
  section_id: null,
  slug: `f${i}`,
  label: `Field ${i}`,
  type: options ? "select" : "text",
  is_required: false,
  options: options ? [{ value: "x", label: "x", tags: [] }] : null,
  validation_rules: { regex },
  is_unique: false,
  position: i,
  maps_to: null
})

const utf8 = new TextEncoder()
const bytesOf = (values: Record<string, unknown>): number => utf8.encode(JSON.stringify({ values })).length

type Shape = "long" | "mid" | "items"
/**
 * Values filling one body to the byte limit: `long` as many 10,000-character strings as fit, `mid`
 * 500 keys of ~500 characters, `items` arrays of 200 one-to-three-character items (fields with options).
 */
const body = (shape: Shape, text: (length: number) => string): Record<string, unknown> => {
  const values: Record<string, unknown> = {}
  let used = bytesOf(values)
  for (let i = 0; i < 500; i++) {
    const value: unknown = shape === "items"
      ? Array.from({ length: arrayLimit }, () => text(1 + (i % 3)))
      : text(shape === "long" ? stringLimit : 500)
    const size = utf8.encode(`${JSON.stringify(`f${i}`)}:${JSON.stringify(value)},`).length
    if (used + size > bodyLimit) {
      // the last value takes what room is left
      const room = bodyLimit - used - 16
      if (room > 8 && shape !== "items") {
        let rest = text(Math.min(stringLimit, room))
        while (bytesOf({ ...values, [`f${i}`]: rest }) > bodyLimit) rest = [...rest].slice(0, -16).join("")
        values[`f${i}`] = rest
      }
      break
    }
    values[`f${i}`] = value
    used += size
  }
  return values
}

const nullPrototype = (map: Record<string, unknown>) => Object.assign(Object.create(null) as Record<string, unknown>, map)

/** Median and max CPU ms of one save's relaxed validation, fresh values each round. */
const measure = (regex: string, shape: Shape, text: (length: number) => string) => {
  const fields = Array.from({ length: 500 }, (_, i) => field(i, regex, shape === "items"))
  const validate = compileRules(fields).relaxed
  const times: Array<number> = []
  let bytes = 0
  for (let round = 0; round < rounds + 1; round++) {
    const values = body(shape, text)
    bytes = bytesOf(values)
    const map = nullPrototype(JSON.parse(JSON.stringify(values)) as Record<string, unknown>)
    const ms = cpuMs(() => validate(map))
    if (round > 0) times.push(ms) // the first round warms the JIT
  }
  times.sort((a, b) => a - b)
  return { median: times[times.length >> 1] ?? 0, max: times[times.length - 1] ?? 0, bytes }
}

const unicode = "aé1ж中bQ9"
const pad = "z".repeat(40) // pushes the program past what the backtracker takes at 10,000 characters

/** Families of patterns built to be expensive, by a size k; each with the input that keeps it busy. */
const families: ReadonlyArray<{ name: string; pattern: (k: number) => string; text: (length: number) => string }> = [
  { name: "words", pattern: (k) => `(\\w+\\s?){${k}}`, text: (n) => "a".repeat(n) },
  { name: "words, big program", pattern: (k) => `(\\w+\\s?){${k}}|${pad}`, text: (n) => "a".repeat(n) },
  { name: "k-th from the end", pattern: (k) => `[ab]*a[ab]{${k}}`, text: (n) => randomText("ab", n) },
  { name: "k-th from the end, big program", pattern: (k) => `[ab]*a[ab]{${k}}|${pad}`, text: (n) => randomText("ab", n) },
  { name: "Unicode k-th from the end", pattern: (k) => `[\\pL\\pN]*\\pL[\\pL\\pN]{${k}}`, text: (n) => randomText(unicode, n) },
  {
    name: "Unicode k-th from the end, big program",
    pattern: (k) => `[\\pL\\pN]*\\pL[\\pL\\pN]{${k}}|${pad}`,
    text: (n) => randomText(unicode, n)
  },
  {
    name: "Unicode k-th, case-insensitive, big program",
    pattern: (k) => `(?i)[\\pL\\pN]*k[\\pL\\pN]{${k}}|${pad}`,
    text: (n) => randomText("kKaé1ж中", n)
  },
  { name: "Unicode words, big program", pattern: (k) => `([\\pL\\pN]+\\s?){${k}}|${pad}`, text: (n) => randomText(unicode, n) },
  { name: "long Unicode chain", pattern: (k) => `[\\pL\\pN]{0,${Math.min(1000, k * 40)}}`, text: (n) => randomText(unicode, n) }
]

/** The long body through `RE2JS.testExact` as re2js comes (lazy DFA first): median CPU ms. */
const dfaMedian = (regex: string, text: (length: number) => string): number => {
  const re = RE2JS.compile(regex)
  const times: Array<number> = []
  for (let round = 0; round < rounds + 1; round++) {
    const values = Object.values(body("long", text)) as Array<string>
    const ms = cpuMs(() => values.forEach((value) => re.testExact(value.trim())))
    if (round > 0) times.push(ms)
  }
  return times.sort((a, b) => a - b)[times.length >> 1] ?? 0
}

/** The largest k whose pattern the budget admits. */
const largestAdmitted = (pattern: (k: number) => string): number | undefined => {
  let best: number | undefined
  for (let k = 1; k <= 1000; k++) {
    if (patternProblem(pattern(k)) !== undefined) break
    best = k
  }
  return best
}

const costOf = (regex: string) => {
  const re = RE2JS.compile(regex)
  return patternCost(re, Number.POSITIVE_INFINITY)
}

console.log(
  `budget: at most ${patternBudget.instructions} instructions, at most ${patternBudget.width} live at once` +
    ` (followed over ${patternBudget.steps} characters)`
)
console.log(`one save's relaxed validation of a ${bodyLimit}-byte body, the pattern on every field; CPU ms, median / max of ${rounds}`)
let worst = { ms: 0, label: "" }
let worstDfa = { ms: 0, label: "" }
for (const family of families) {
  const k = largestAdmitted(family.pattern)
  if (k === undefined) {
    console.log(`${family.name}: nothing admitted`)
    continue
  }
  const regex = family.pattern(k)
  const { instructions, width } = costOf(regex)
  const line: Array<string> = []
  for (const shape of ["long", "mid", "items"] as const) {
    const { median, max, bytes } = measure(regex, shape, family.text)
    line.push(`${shape} ${median.toFixed(1)} / ${max.toFixed(1)} (${bytes} B)`)
    if (median > worst.ms) worst = { ms: median, label: `${family.name} (k=${k}), ${shape}` }
  }
  // the same pattern on re2js as it comes: its lazy DFA first (8 MB of states a pattern), not used here
  const withDfa = dfaMedian(regex, family.text)
  if (withDfa > worstDfa.ms) worstDfa = { ms: withDfa, label: family.name }
  line.push(`long, with re2js's DFA ${withDfa.toFixed(1)}`)
  console.log(`${family.name.padEnd(44)} k=${String(k).padStart(3)} ${instructions} instr, width ${width}: ${line.join("  ")}`)
}
console.log(`worst admitted: ${worst.label}: ${worst.ms.toFixed(1)} ms of CPU per save (median)`)
console.log(`worst admitted had re2js's DFA run them: ${worstDfa.label}, long: ${worstDfa.ms.toFixed(1)} ms (median)`)

const everyday: ReadonlyArray<readonly [string, string, (length: number) => string]> = [
  ["email-ish", "^[^@\\s]+@[^@\\s]+\\.[a-z]{2,}$", (n) => `${"a".repeat(Math.max(1, n - 12))}@example.org`],
  ["phone-ish", "^\\+?[0-9 ()-]{7,20}$", (n) => randomText("0123456789 ", n)],
  ["postcode", "/^[1-9][0-9]{3} ?[a-z]{2}$/i", (n) => randomText("1234", n)],
  ["weekdays", "(mon|tue|wed|thu|fri|sat|sun)", (n) => randomText("montue", n)],
  ["name", "^[\\p{L} .'-]+$", (n) => randomText("Aé ж'-", n)]
]
for (const [name, regex, text] of everyday) {
  const { width, instructions } = costOf(regex)
  const { median, max } = measure(regex, "long", text)
  console.log(`${name.padEnd(10)} ${JSON.stringify(regex).padEnd(40)} ${instructions} instr, width ${width}: long ${median.toFixed(1)} / ${max.toFixed(1)} ms`)
}

const reproduction = "(\\w+\\s?){1000}"
console.log(`issue 30's ${reproduction}: ${patternProblem(reproduction)?.message ?? "admitted"}`)

// The check itself, from a cold cache: 500 fields each with a different pattern (a worst case of
// compiling: the longest programs the budget admits, and the longest it compiles before refusing).
const checkCost = (pattern: (i: number) => string) => {
  const fields = Array.from({ length: 500 }, (_, i) => field(i, pattern(i), false))
  const refused = checkDefinition({ type: undefined, sections: [], fields }).length
  const times = Array.from({ length: 5 }, () => {
    clearPatternCache()
    return cpuMs(() => checkDefinition({ type: undefined, sections: [], fields }))
  }).sort((a, b) => a - b)
  return `${times[2]?.toFixed(0)} ms (${refused} refused)`
}
console.log(`definition check of 500 distinct patterns, CPU, median of 5: admitted at the edge ${checkCost((i) => `[\\pL\\pN]{0,240}z${i}`)};` +
  ` compiled then refused ${checkCost((i) => `[\\pL\\pN]{0,990}z${i}`)}; refused before compiling ${checkCost((i) => `[\\pL\\pN]{0,1000}[a-z]{0,1000}z${i}`)}`)
