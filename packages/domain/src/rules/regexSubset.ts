/**
 * A single-pass, linear-time matcher with RE2 semantics for the simplest patterns: a sequence of
 * character sets, each repeated (`NL[0-9]{9}B[0-9]{2}`, `[A-Z]{2}\d{2}[A-Z0-9]{10,30}`), where every
 * variable repetition is followed by characters it cannot take, so the greedy split is the only one.
 * Any other pattern (groups, alternation, ambiguous repetitions, unusual syntax) is left to re2js.
 */

const maxCodePoint = 0x10ffff

/** Sorted, disjoint, inclusive ranges: [lo0, hi0, lo1, hi1, …]. */
type Ranges = ReadonlyArray<number>

const normalize = (ranges: Ranges): Ranges => {
  const pairs: Array<[number, number]> = []
  for (let i = 0; i < ranges.length; i += 2) pairs.push([ranges[i] as number, ranges[i + 1] as number])
  pairs.sort((a, b) => a[0] - b[0])
  const out: Array<number> = []
  for (const [lo, hi] of pairs) {
    const last = out.length - 1
    if (last > 0 && lo <= (out[last] as number) + 1) out[last] = Math.max(out[last] as number, hi)
    else out.push(lo, hi)
  }
  return out
}

const complement = (ranges: Ranges): Ranges => {
  const out: Array<number> = []
  let next = 0
  for (let i = 0; i < ranges.length; i += 2) {
    if ((ranges[i] as number) > next) out.push(next, (ranges[i] as number) - 1)
    next = (ranges[i + 1] as number) + 1
  }
  if (next <= maxCodePoint) out.push(next, maxCodePoint)
  return out
}

const intersects = (a: Ranges, b: Ranges): boolean => {
  let i = 0
  let j = 0
  while (i < a.length && j < b.length) {
    if ((a[i + 1] as number) < (b[j] as number)) i += 2
    else if ((b[j + 1] as number) < (a[i] as number)) j += 2
    else return true
  }
  return false
}

const contains = (ranges: Ranges, c: number): boolean => {
  for (let i = 0; i < ranges.length; i += 2) if (c >= (ranges[i] as number) && c <= (ranges[i + 1] as number)) return true
  return false
}

const digits: Ranges = [48, 57]
const word: Ranges = [48, 57, 65, 90, 95, 95, 97, 122]
const space: Ranges = [9, 10, 12, 13, 32, 32] // RE2's \s: [\t\n\f\r ]

/**
 * RE2's case folding of a set of ASCII code points: the other case, plus U+212A (Kelvin) for k and
 * U+017F (long s) for s, which fold with them. Undefined for sets beyond ASCII (left to re2js).
 */
const foldAscii = (ranges: Ranges): Ranges | undefined => {
  const out = [...ranges]
  for (let i = 0; i < ranges.length; i += 2) {
    const lo = ranges[i] as number
    const hi = ranges[i + 1] as number
    if (hi > 127) return undefined
    const upperLo = Math.max(lo, 65)
    const upperHi = Math.min(hi, 90)
    if (upperLo <= upperHi) out.push(upperLo + 32, upperHi + 32)
    const lowerLo = Math.max(lo, 97)
    const lowerHi = Math.min(hi, 122)
    if (lowerLo <= lowerHi) out.push(lowerLo - 32, lowerHi - 32)
  }
  const folded = normalize(out)
  const extra: Array<number> = []
  if (contains(folded, 107)) extra.push(0x212a, 0x212a)
  if (contains(folded, 115)) extra.push(0x17f, 0x17f)
  return normalize([...folded, ...extra])
}

/** ASCII punctuation: what RE2 lets a backslash make literal. */
const isPunctuation = (c: string): boolean => /^[!-/:-@[-`{-~]$/.test(c)

/**
 * A Perl class (`\d` `\s` `\w`, negated in upper case). Under case folding only the classes that
 * folding leaves unchanged are taken (`\w` is not: folding adds U+017F and U+212A).
 */
const perlClass = (letter: string, fold: boolean): Ranges | undefined => {
  if (!"dDsSwW".includes(letter)) return undefined
  const base = letter === "d" || letter === "D" ? digits : letter === "s" || letter === "S" ? space : word
  if (fold && base === word) return undefined
  return letter === letter.toUpperCase() ? complement(base) : base
}

interface Cursor {
  readonly source: string
  at: number
}

/** One character of a bracket class (a literal or an escaped punctuation), as a code point. */
const classChar = (cursor: Cursor): number | undefined => {
  const c = cursor.source[cursor.at]
  if (c === undefined || c === "[" || c === "]") return undefined
  if (c !== "\\") {
    cursor.at++
    return c.charCodeAt(0)
  }
  const escaped = cursor.source[cursor.at + 1]
  if (escaped === undefined || !isPunctuation(escaped)) return undefined
  cursor.at += 2
  return escaped.charCodeAt(0)
}

/** `[…]` at the cursor: literals, ranges, `\d` `\s` `\w`, an optional leading `^`; else undefined. */
const bracketClass = (cursor: Cursor, fold: boolean): Ranges | undefined => {
  const { source } = cursor
  cursor.at++
  const negated = source[cursor.at] === "^"
  if (negated) cursor.at++
  if (source[cursor.at] === "]") return undefined // `[]a]` and `[^]`: rare, left to re2js
  const items: Array<number> = []
  let first = true
  for (;;) {
    const c = source[cursor.at]
    if (c === undefined) return undefined
    if (c === "]") {
      cursor.at++
      break
    }
    if (c === "-") {
      // a literal only first or last, like `[-a]` or `[a-]`
      if (!first && source[cursor.at + 1] !== "]") return undefined
      items.push(45, 45)
      cursor.at++
    } else if (c === "\\" && source[cursor.at + 1] !== undefined && /[a-zA-Z]/.test(source[cursor.at + 1] as string)) {
      const letter = source[cursor.at + 1] as string
      if (letter !== "d" && letter !== "s" && letter !== "w") return undefined
      const set = perlClass(letter, fold)
      if (set === undefined) return undefined
      items.push(...set)
      cursor.at += 2
      if (source[cursor.at] === "-" && source[cursor.at + 1] !== "]") return undefined
    } else {
      const lo = classChar(cursor)
      if (lo === undefined) return undefined
      let hi = lo
      if (source[cursor.at] === "-" && source[cursor.at + 1] !== "]" && source[cursor.at + 1] !== undefined) {
        cursor.at++
        const end = classChar(cursor)
        if (end === undefined || end < lo) return undefined
        hi = end
      }
      items.push(lo, hi)
    }
    first = false
  }
  const set = normalize(items)
  const folded = fold ? foldAscii(set) : set
  if (folded === undefined) return undefined
  return negated ? complement(folded) : folded
}

/** One atom's set at the cursor (outside brackets), or undefined when it is not simple. */
const atomSet = (cursor: Cursor, fold: boolean, dotAll: boolean): Ranges | undefined => {
  const { source } = cursor
  const c = source[cursor.at] as string
  if (c === "[") return bracketClass(cursor, fold)
  if (c === ".") {
    cursor.at++
    return dotAll ? [0, maxCodePoint] : [0, 9, 11, maxCodePoint]
  }
  let literal: number
  if (c === "\\") {
    const escaped = source[cursor.at + 1]
    if (escaped === undefined) return undefined
    cursor.at += 2
    if (/[a-zA-Z]/.test(escaped)) return perlClass(escaped, fold)
    if (!isPunctuation(escaped)) return undefined
    literal = escaped.charCodeAt(0)
  } else {
    if ("+*?(){}|^$[]".includes(c)) return undefined
    cursor.at++
    literal = c.charCodeAt(0)
  }
  return fold ? foldAscii([literal, literal]) : [literal, literal]
}

interface Repeat {
  readonly min: number
  readonly max: number
}

const once: Repeat = { min: 1, max: 1 }

/** The quantifier at the cursor (none is `{1}`); undefined for lazy, stacked or unusual ones. */
const quantifier = (cursor: Cursor): Repeat | undefined => {
  const { source } = cursor
  const c = source[cursor.at]
  let repeat: Repeat
  if (c === "?") repeat = { min: 0, max: 1 }
  else if (c === "*") repeat = { min: 0, max: Infinity }
  else if (c === "+") repeat = { min: 1, max: Infinity }
  else if (c === "{") {
    const match = /^\{(\d{1,4})(,(\d{0,4}))?\}/.exec(source.slice(cursor.at))
    if (match === null) return undefined
    const min = Number(match[1])
    const max = match[2] === undefined ? min : match[3] === "" ? Infinity : Number(match[3])
    if (min > 1000 || max < min || (max !== Infinity && max > 1000)) return undefined
    repeat = { min, max }
    cursor.at += match[0].length - 1
  } else return once
  cursor.at++
  const after = source[cursor.at]
  return after !== undefined && "?*+{".includes(after) ? undefined : repeat
}

export interface SubsetAtom {
  /** Membership of code points below 128, one bit each. */
  readonly ascii: Uint32Array
  readonly ranges: Ranges
  readonly min: number
  readonly max: number
}

const atomOf = (ranges: Ranges, repeat: Repeat): SubsetAtom => {
  const ascii = new Uint32Array(4)
  for (let c = 0; c < 128; c++) if (contains(ranges, c)) ascii[c >> 5] = (ascii[c >> 5] as number) | (1 << (c & 31))
  return { ascii, ranges, min: repeat.min, max: repeat.max }
}

/**
 * The atoms of `source` (flags a subset of `ims`) when the single-pass matcher is exact for it:
 * every repetition of variable length must be followed, up to and including the next atom that
 * needs a character, only by sets disjoint from its own. Undefined otherwise.
 */
export const parseSubset = (source: string, flags: string): ReadonlyArray<SubsetAtom> | undefined => {
  if (/[\ud800-\udfff]/.test(source)) return undefined
  const fold = flags.includes("i")
  const dotAll = flags.includes("s")
  let end = source.length
  // a trailing unescaped `$` and a leading `^` change nothing in a whole-string match (with or without m)
  if (source.endsWith("$")) {
    let backslashes = 0
    for (let i = end - 2; i >= 0 && source[i] === "\\"; i--) backslashes++
    if (backslashes % 2 === 0) end--
  }
  const cursor: Cursor = { source: source.slice(0, end), at: source.startsWith("^") ? 1 : 0 }
  const parsed: Array<{ readonly set: Ranges; readonly repeat: Repeat }> = []
  while (cursor.at < cursor.source.length) {
    const set = atomSet(cursor, fold, dotAll)
    if (set === undefined) return undefined
    const repeat = quantifier(cursor)
    if (repeat === undefined) return undefined
    parsed.push({ set, repeat })
  }
  for (let i = 0; i < parsed.length; i++) {
    const { repeat, set } = parsed[i] as (typeof parsed)[number]
    if (repeat.min === repeat.max) continue
    for (let j = i + 1; j < parsed.length; j++) {
      const next = parsed[j] as (typeof parsed)[number]
      if (intersects(set, next.set)) return undefined
      if (next.repeat.min > 0) break
    }
  }
  return parsed.map(({ repeat, set }) => atomOf(set, repeat))
}

const has = (atom: SubsetAtom, c: number): boolean =>
  c < 128 ? ((atom.ascii[c >> 5] as number) & (1 << (c & 31))) !== 0 : contains(atom.ranges, c)

/**
 * Whole-string match of `s` (which holds no surrogate) against the atoms: each takes the longest
 * run it may, which under `parseSubset`'s condition is the only split that can succeed.
 */
export const matchSubset = (atoms: ReadonlyArray<SubsetAtom>, s: string): boolean => {
  const n = s.length
  let pos = 0
  for (let a = 0; a < atoms.length; a++) {
    const atom = atoms[a] as SubsetAtom
    const limit = Math.min(atom.max, n - pos)
    let count = 0
    while (count < limit && has(atom, s.charCodeAt(pos))) {
      pos++
      count++
    }
    if (count < atom.min) return false
  }
  return pos === n
}
