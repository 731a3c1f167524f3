/**
 * A `visible_if` condition (CONTRACT §18) compiled to a closure: JSON Logic's operators `var == != === !== < <= >
 * >= ! !! and or in` with the results json-logic-js 2.0 gives them (loose `==`, the three-argument "between"
 * form of `<` and `<=`, JSON Logic's truthiness where an empty array is false, `and`/`or` answering the deciding
 * operand). Pure and dependency-free: the server's rule compiler and the browser's element both import it.
 */

/** What a condition reads: every slug of the form, a null-prototype map of normalised values (`readValue.ts`). */
export type ConditionData = Readonly<Record<string, unknown>>
export type Evaluate = (data: ConditionData) => unknown

export const conditionOperators: ReadonlyArray<string> = [
  "var", "==", "!=", "===", "!==", "<", "<=", ">", ">=", "!", "!!", "and", "or", "in"
]
const known: ReadonlySet<string> = new Set(conditionOperators)

/** JSON Logic's truthiness: JavaScript's, except that an empty array is false. */
export const truthy = (value: unknown): boolean => (Array.isArray(value) ? value.length > 0 : Boolean(value))

/** `{ "op": args }`: an object with exactly one own key (anything else is a literal to JSON Logic). */
export const isOperation = (value: unknown): value is Readonly<Record<string, unknown>> =>
  typeof value === "object" && value !== null && !Array.isArray(value) && Object.keys(value).length === 1

/** The operator's arguments as a list (`{ "!": true }` is `{ "!": [true] }`). */
export const argumentsOf = (operation: Readonly<Record<string, unknown>>, op: string): ReadonlyArray<unknown> => {
  const args = operation[op]
  return Array.isArray(args) ? args : [args]
}

/** The slug a `var` names: `{ "var": "slug" }` or `{ "var": ["slug"] }`; undefined for any other form. */
export const varSlug = (args: unknown): string | undefined => {
  if (typeof args === "string") return args
  if (Array.isArray(args) && args.length === 1 && typeof args[0] === "string") return args[0]
  return undefined
}

const nothing: Evaluate = () => undefined
const readNull: Evaluate = () => null

/**
 * The closure of a condition. Made for checked conditions (`checkCondition.ts`); on anything else it never
 * throws: an unknown operator or a `var` of another form makes the whole condition true (the field is then
 * validated as if it had no condition), and a slug outside `slugs` reads null.
 */
export const compileCondition = (condition: unknown, slugs: ReadonlySet<string>): Evaluate => {
  try {
    return compile(condition, slugs)
  } catch {
    return () => true
  }
}

class Unsupported extends Error {}

const compile = (node: unknown, slugs: ReadonlySet<string>): Evaluate => {
  if (Array.isArray(node)) {
    const items = node.map((item) => compile(item, slugs))
    return (data) => items.map((item) => item(data))
  }
  if (!isOperation(node)) return () => node
  const op = Object.keys(node)[0] as string
  if (!known.has(op)) throw new Unsupported(op)
  if (op === "var") {
    const slug = varSlug(node[op])
    if (slug === undefined) throw new Unsupported(op)
    return slugs.has(slug) ? (data) => data[slug] ?? null : readNull
  }
  const args = argumentsOf(node, op).map((arg) => compile(arg, slugs))
  const a = args[0] ?? nothing
  const b = args[1] ?? nothing
  const c = args[2] ?? nothing
  switch (op) {
    case "and":
      return (data) => {
        let current: unknown
        for (const arg of args) {
          current = arg(data)
          if (!truthy(current)) return current
        }
        return current
      }
    case "or":
      return (data) => {
        let current: unknown
        for (const arg of args) {
          current = arg(data)
          if (truthy(current)) return current
        }
        return current
      }
    case "!":
      return (data) => !truthy(a(data))
    case "!!":
      return (data) => truthy(a(data))
    case "in":
      return (data) => {
        const x = a(data)
        const within = b(data)
        if (typeof within === "string") return within !== "" && within.indexOf(x as string) !== -1
        return Array.isArray(within) && within.indexOf(x) !== -1
      }
    default:
      return comparison(op, a, b, c)
  }
}

/** `==` and `!=` are JavaScript's loose equality, comparisons JavaScript's (both as json-logic-js has them). */
const comparison = (op: string, a: Evaluate, b: Evaluate, c: Evaluate): Evaluate => {
  // Every argument is evaluated, as json-logic-js does before calling the operator.
  // eslint-free `any`: the operands are JSON values compared as JavaScript compares them
  type Values = [any, any, any]
  const all = (data: ConditionData): Values => [a(data), b(data), c(data)]
  switch (op) {
    case "==":
      return (data) => { const [x, y] = all(data); return x == y }
    case "!=":
      return (data) => { const [x, y] = all(data); return x != y }
    case "===":
      return (data) => { const [x, y] = all(data); return x === y }
    case "!==":
      return (data) => { const [x, y] = all(data); return x !== y }
    case ">":
      return (data) => { const [x, y] = all(data); return x > y }
    case ">=":
      return (data) => { const [x, y] = all(data); return x >= y }
    case "<":
      return (data) => { const [x, y, z] = all(data); return z === undefined ? x < y : x < y && y < z }
    default: // "<="
      return (data) => { const [x, y, z] = all(data); return z === undefined ? x <= y : x <= y && y <= z }
  }
}
