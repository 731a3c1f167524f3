/** The `regex` rule: `/pattern/flags` or bare patterns, compiled once on RE2 (linear time). */
import { RE2JS } from "re2js"

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

// Matching never throws into a request: an engine failure counts as no match.
const build = (parsed: ParsedPattern, checked: RE2JS | undefined): CompiledPattern => {
  const re = checked ?? RE2JS.compile(parsed.source, re2Flags(parsed.flags))
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

/** Compiles `pattern` (either form), or throws the RE2 syntax error. Cached by pattern text. */
export const compilePattern = (pattern: string): CompiledPattern =>
  cache.get(pattern) ?? remember(pattern, build(parsePattern(pattern), undefined))

/** Why `pattern` does not compile on RE2, or undefined when it does (then it is compiled and kept). */
export const patternProblem = (pattern: string): string | undefined => {
  try {
    const parsed = parsePattern(pattern)
    const re = RE2JS.compile(parsed.source, re2Flags(parsed.flags))
    if (!cache.has(pattern)) remember(pattern, build(parsed, re))
    return undefined
  } catch (error) {
    return error instanceof Error ? error.message : String(error)
  }
}

/** Empties the compiled-pattern cache (for benchmarks measuring cold compiles). */
export const clearPatternCache = (): void => cache.clear()
