/**
 * An upper bound of a pattern's program size read from its text, so a pattern whose counted
 * repetitions expand past the budget is refused before RE2 spends time compiling it (re2js compiles
 * about 2 µs per instruction and allows 1.4 million of them).
 */

interface Frame {
  /** Completed alternatives of the group, with one instruction per `|`. */
  done: number
  /** The alternative being read. */
  branch: number
  /** The last item of the alternative (what a quantifier repeats). */
  last: number
}

const repeatAt = /^\{(\d+)(,(\d*))?\}\??/

/** Index just past the escape starting at `i` (a backslash). */
const skipEscape = (s: string, i: number): number => {
  const c = s[i + 1]
  if (c === undefined) return i + 1
  if ((c === "p" || c === "P" || c === "x") && s[i + 2] === "{") {
    const end = s.indexOf("}", i + 3)
    return end < 0 ? s.length : end + 1
  }
  if (c === "p" || c === "P") return i + 3
  if (c === "x") return i + 4
  return i + 2
}

/** Index just past the character class starting at `i` (a `[`). */
const skipClass = (s: string, i: number): number => {
  let j = i + 1
  if (s[j] === "^") j++
  if (s[j] === "]") j++ // a `]` first is a literal
  while (j < s.length && s[j] !== "]") {
    if (s[j] === "\\") j = skipEscape(s, j)
    else if (s.startsWith("[:", j)) {
      const end = s.indexOf(":]", j + 2)
      j = end < 0 ? j + 1 : end + 2
    } else j++
  }
  return j + 1
}

/**
 * At least the number of instructions re2js compiles `source` to (RE2 syntax): literals, classes and
 * assertions count one each (two for a surrogate pair), a group two more, a `|` one, a `*` `+` `?` two,
 * an empty alternative one, and `{n,m}` repeats its item m times (n + 1 for `{n,}`) plus one per
 * optional copy and two; the program three more.
 */
export const patternSizeBound = (source: string): number => {
  const stack: Array<Frame> = []
  let top: Frame = { done: 0, branch: 0, last: 0 }
  const item = (size: number) => {
    top.branch += size
    top.last = size
  }
  const repeat = (times: number, extra: number) => {
    const repeated = top.last * times + extra
    top.branch += repeated - top.last
    top.last = repeated
  }
  let i = 0
  while (i < source.length) {
    const c = source[i] as string
    if (c === "\\") {
      if (source[i + 1] === "Q") {
        const end = source.indexOf("\\E", i + 2)
        const literal = end < 0 ? source.length - i - 2 : end - i - 2
        item(Math.max(1, literal))
        i = end < 0 ? source.length : end + 2
      } else {
        item(1)
        i = skipEscape(source, i)
      }
    } else if (c === "[") {
      item(1)
      i = skipClass(source, i)
    } else if (c === "(") {
      // `(?flags)` sets flags and opens nothing
      const flags = /^\(\?[imsU-]*\)/.exec(source.slice(i, i + 12))
      if (flags !== null) {
        i += flags[0].length
        continue
      }
      stack.push(top)
      top = { done: 0, branch: 0, last: 0 }
      i++
    } else if (c === ")") {
      const group = top.done + Math.max(1, top.branch) + 2
      top = stack.pop() ?? { done: 0, branch: 0, last: 0 }
      item(group)
      i++
    } else if (c === "|") {
      top.done += Math.max(1, top.branch) + 1
      top.branch = 0
      top.last = 0
      i++
    } else if (c === "*" || c === "+" || c === "?") {
      repeat(1, 2)
      i += source[i + 1] === "?" ? 2 : 1
    } else if (c === "{" && repeatAt.test(source.slice(i, i + 24))) {
      const m = repeatAt.exec(source.slice(i, i + 24)) as RegExpExecArray
      const min = Number(m[1])
      const max = m[2] === undefined ? min : m[3] === "" ? min + 1 : Number(m[3])
      repeat(Math.max(1, max), Math.max(0, max - min) + 2)
      i += m[0].length
    } else {
      item(1)
      i++
    }
  }
  while (stack.length > 0) {
    const group = top.done + Math.max(1, top.branch) + 2
    top = stack.pop() as Frame
    item(group)
  }
  return top.done + Math.max(1, top.branch) + 3
}
