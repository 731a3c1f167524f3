/** The `regex` rule: `/pattern/flags` or bare patterns, compiled once on RE2 (linear time), within a cost budget. */
import { RE2JS } from "re2js"
import { programOverBudget, sourceOverBudget } from "./patternCost.js"

export interface ParsedPattern {
  readonly source: string
  /** A subset of `ims`, each letter at most once, in that order. */
  readonly flags: string
}

const slashFlags = /^[ims]*$/

/**
 * Slash form when the pattern starts with `/` and its last `/` (another one) is followed only by
 * flag letters `i` `m` `s`: `/a/` is `a`, `/a/i` is `a` case-insensitive, `/usr/bin` is bare.
 */
export const parsePattern = (pattern: string): ParsedPattern => {
  const last = pattern.lastIndexOf("/")
  if (pattern.charCodeAt(0) === 47 && last > 0) {
    const tail = pattern.slice(last + 1)
    if (slashFlags.test(tail)) {
      const flags = (tail.includes("i") ? "i" : "") + (tail.includes("m") ? "m" : "") + (tail.includes("s") ? "s" : "")
      return { source: pattern.slice(1, last), flags }
    }
  }
  return { source: pattern, flags: "" }
}

const re2Flags = (flags: string): number =>
  (flags.includes("i") ? RE2JS.CASE_INSENSITIVE : 0) |
  (flags.includes("m") ? RE2JS.MULTILINE : 0) |
  (flags.includes("s") ? RE2JS.DOTALL : 0)

/** A compiled pattern: `test` is a whole-string match. */
export interface CompiledPattern {
  readonly test: (s: string) => boolean
}

// Compiling on RE2JS costs about 25-100 µs a pattern; schemas share patterns and the check before
// storing a schema compiles them first, so compiled patterns are kept (bounded, oldest dropped).
const maxCachedPatterns = 1000
const cache = new Map<string, CompiledPattern>()

const remember = (pattern: string, compiled: CompiledPattern): CompiledPattern => {
  if (cache.size >= maxCachedPatterns) {
    const oldest = cache.keys().next()
    if (oldest.done !== true) cache.delete(oldest.value)
  }
  cache.set(pattern, compiled)
  return compiled
}

/** A pattern RE2 compiles but whose program is over the budget (`patternCost.ts`). */
export class PatternOverBudget extends Error {}

// re2js's lazy DFA is fast while a pattern's states fit its cache (8 MB a pattern), but past it the DFA
// builds a state per character, each costing its instructions and a table as long as the pattern's
// character classes (over 1,600 with \pL), which the budget does not bound: the worst pattern the budget
// admits costs 124 ms a save on it, 52 ms on the other engines (the repository's bench/RESULTS.md). Schema patterns
// run on re2js's one-pass matcher, backtracker and NFA, whose steps per character are bounded by the
// pattern's width. A DFA marked failed sends re2js to them at once; one serves every pattern.
let noDfa: RE2JS["re2Input"]["lazyDFA"] | undefined
const withoutDfa = (re: RE2JS): RE2JS => {
  if (noDfa === undefined) {
    noDfa = RE2JS.compile("a").re2Input.dfa
    noDfa.failed = true
  }
  re.re2Input.lazyDFA = noDfa
  return re
}

/** Compiles on RE2 within the budget, or throws RE2's syntax error or `PatternOverBudget`. */
const compileChecked = (parsed: ParsedPattern): RE2JS => {
  const bySource = sourceOverBudget(parsed.source)
  if (bySource !== undefined) throw new PatternOverBudget(bySource)
  const re = RE2JS.compile(parsed.source, re2Flags(parsed.flags))
  const byProgram = programOverBudget(re)
  if (byProgram !== undefined) throw new PatternOverBudget(byProgram)
  return withoutDfa(re)
}

// Matching never throws into a request: an engine failure counts as no match.
const build = (parsed: ParsedPattern, checked: RE2JS | undefined): CompiledPattern => {
  const re = checked ?? compileChecked(parsed)
  return {
    test: (s) => {
      try {
        return re.testExact(s)
      } catch {
        return false
      }
    }
  }
}

/**
 * Compiles `pattern` (either form), or throws the RE2 syntax error or `PatternOverBudget`. Cached by
 * pattern text.
 */
export const compilePattern = (pattern: string): CompiledPattern =>
  cache.get(pattern) ?? remember(pattern, build(parsePattern(pattern), undefined))

export interface PatternProblem {
  /** `syntax`: RE2 does not compile it; `budget`: it compiles, but its program is over the budget. */
  readonly kind: "syntax" | "budget"
  readonly message: string
}

/** Why `pattern` cannot be a schema's pattern, or undefined when it can (then it is compiled and kept). */
export const patternProblem = (pattern: string): PatternProblem | undefined => {
  if (cache.has(pattern)) return undefined
  try {
    const parsed = parsePattern(pattern)
    remember(pattern, build(parsed, compileChecked(parsed)))
    return undefined
  } catch (error) {
    if (error instanceof PatternOverBudget) return { kind: "budget", message: error.message }
    return { kind: "syntax", message: error instanceof Error ? error.message : String(error) }
  }
}

/** Empties the compiled-pattern cache (for benchmarks measuring cold compiles). */
export const clearPatternCache = (): void => cache.clear()
