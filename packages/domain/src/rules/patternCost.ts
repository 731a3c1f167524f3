/**
 * What matching a compiled pattern can cost, read from its program: how many instructions it has, and
 * how many of them can be live at once (RE2's matchers do at most that many steps per character).
 */
import type { RE2JS } from "re2js"
import { patternSizeBound } from "./patternSize.js"

/**
 * The budget a schema's pattern must fit (measured: `bench/regexCost.bench.ts`, the rules README):
 * at most `instructions` instructions in its program, at most `width` of them live at once. A pattern
 * whose text alone bounds its program above `sourceBound` is refused before it is compiled.
 */
export const patternBudget = {
  instructions: 500,
  width: 16,
  sourceBound: 2000,
  /** The longest value the width is followed over (the default §8 string limit, in code points). */
  steps: 10_000
} as const

export interface PatternCost {
  readonly instructions: number
  /** The most instructions live at once; past `limit` the count stops, so it is then `limit + 1` or more. */
  readonly width: number
}

// re2js 2.10.0 keeps its program as `re2Input.prog` (`inst`, `start`); these are its `Inst` op codes.
// The version is pinned; regex.test.ts checks known widths, so a change of layout fails a test.
const ALT = 1
const ALT_MATCH = 2
const CAPTURE = 3
const EMPTY_WIDTH = 4
const NOP = 7
const FIRST_RUNE = 8
const LAST_RUNE = 11

interface Instruction {
  readonly op: number
  readonly out: number
  readonly arg: number
}
interface Program {
  readonly inst: ReadonlyArray<Instruction>
  readonly start: number
}

/**
 * The program's instructions and its width: the largest set of instructions live after the same
 * number of characters, over values of up to `patternBudget.steps` characters, counting every
 * character class as matching every character and every assertion (`^`, `$`, `\b`) as holding. That
 * is an upper bound of the threads of RE2's NFA and of the positions its backtracker visits per
 * character, whatever the input. Counting stops past `limit` (a pattern over it is refused anyway).
 */
export const patternCost = (re: RE2JS, limit: number = patternBudget.width): PatternCost => {
  const prog: Program = re.re2Input.prog
  const inst = prog.inst
  const seen = new Int32Array(inst.length)
  let stamp = 0
  // The instructions reached from `from` without reading a character (pc 0 is `fail`), sorted.
  const closure = (from: Array<number>): Array<number> => {
    stamp++
    const live: Array<number> = []
    while (from.length > 0 && live.length <= limit) {
      const pc = from.pop() as number
      if (pc === 0 || seen[pc] === stamp) continue
      seen[pc] = stamp
      live.push(pc)
      const i = inst[pc] as Instruction
      if (i.op === ALT || i.op === ALT_MATCH) from.push(i.out, i.arg)
      else if (i.op === CAPTURE || i.op === NOP || i.op === EMPTY_WIDTH) from.push(i.out)
    }
    return live.sort((a, b) => a - b)
  }
  const same = (a: ReadonlyArray<number>, b: ReadonlyArray<number>) =>
    a.length === b.length && a.every((pc, k) => pc === b[k])

  let live = closure([prog.start])
  let width = live.length
  // The sets follow one another deterministically: once one comes back, the rest repeats (Brent).
  let saved = live
  let power = 1
  let lambda = 0
  for (let t = 0; t < patternBudget.steps && live.length > 0 && width <= limit; t++) {
    const next: Array<number> = []
    for (const pc of live) {
      const i = inst[pc] as Instruction
      if (i.op >= FIRST_RUNE && i.op <= LAST_RUNE) next.push(i.out)
    }
    live = closure(next)
    if (live.length > width) width = live.length
    if (same(live, saved)) break
    if (++lambda === power) {
      saved = live
      power *= 2
      lambda = 0
    }
  }
  return { instructions: re.programSize(), width }
}

/** Why the pattern's text is over the budget (so it is not compiled), or undefined. */
export const sourceOverBudget = (source: string): string | undefined => {
  const bound = patternSizeBound(source)
  return bound > patternBudget.sourceBound
    ? `its counted repetitions expand it to as many as ${bound} instructions, more than the ${patternBudget.instructions} allowed`
    : undefined
}

/** Why the compiled pattern is over the budget, or undefined when it fits. */
export const programOverBudget = (re: RE2JS): string | undefined => {
  const instructions = re.programSize()
  if (instructions > patternBudget.instructions) {
    return `its program has ${instructions} instructions, more than the ${patternBudget.instructions} allowed`
  }
  const { width } = patternCost(re)
  if (width > patternBudget.width) {
    return `more than ${patternBudget.width} of its instructions can be live at once while matching ` +
      `(repeated or nested open-ended parts and long alternations multiply them)`
  }
  return undefined
}
