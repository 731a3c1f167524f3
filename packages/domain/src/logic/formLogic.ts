/**
 * A form's conditions together (CONTRACT §18): which fields are active for a map of values, evaluated in
 * dependency order so a field that reads an inactive field reads null; and the form's part of the definition
 * check (references to the field itself or to a section's own fields, `artist_advance` forms, cycles). Compiled
 * once per definition; pure, imported by the server's rules and the browser's element alike.
 */
import { checkCondition } from "./checkCondition.js"
import { compileCondition, type Evaluate, truthy } from "./condition.js"
import { type ReadKind, readKindOf, readValue } from "./readValue.js"

/** What the conditions need of a field. */
export interface LogicField {
  readonly slug: string
  readonly type: string
  readonly section_id: string | null
  readonly visible_if?: unknown
}

export interface LogicSection {
  readonly id: string
  readonly visible_if?: unknown
}

const hasCondition = (part: { readonly visible_if?: unknown }): boolean =>
  part.visible_if !== undefined && part.visible_if !== null

/** Whether any field or section of the form has a condition. */
export const hasConditions = (fields: ReadonlyArray<LogicField>, sections: ReadonlyArray<LogicSection>): boolean =>
  fields.some(hasCondition) || sections.some(hasCondition)

/** The dependency graph: nodes 0…F-1 are the fields, F… the sections; `edges[n]` the nodes `n` reads. */
interface Graph {
  readonly edges: ReadonlyArray<ReadonlyArray<number>>
  readonly fieldCount: number
}

const slugIndex = (fields: ReadonlyArray<LogicField>): Map<string, number> => {
  const index = new Map<string, number>()
  fields.forEach((field, i) => {
    if (!index.has(field.slug)) index.set(field.slug, i)
  })
  return index
}

const sectionIndex = (sections: ReadonlyArray<LogicSection>): Map<string, number> => {
  const index = new Map<string, number>()
  sections.forEach((section, i) => {
    if (!index.has(section.id)) index.set(section.id, i)
  })
  return index
}

/** Strongly connected components (Tarjan, iterative): each node's component id. */
const components = (graph: Graph): { readonly of: Int32Array; readonly sizes: Map<number, number> } => {
  const n = graph.edges.length
  const index = new Int32Array(n).fill(-1)
  const low = new Int32Array(n)
  const of = new Int32Array(n).fill(-1)
  const onStack = new Uint8Array(n)
  const stack: Array<number> = []
  const sizes = new Map<number, number>()
  let next = 0
  let count = 0
  for (let root = 0; root < n; root++) {
    if (index[root] !== -1) continue
    const work: Array<[number, number]> = [[root, 0]]
    while (work.length > 0) {
      const frame = work[work.length - 1] as [number, number]
      const [v, i] = frame
      if (i === 0) {
        index[v] = low[v] = next++
        stack.push(v)
        onStack[v] = 1
      }
      const out = graph.edges[v] as ReadonlyArray<number>
      if (i < out.length) {
        frame[1] = i + 1
        const w = out[i] as number
        if (index[w] === -1) work.push([w, 0])
        else if (onStack[w] === 1) low[v] = Math.min(low[v] as number, index[w] as number)
        continue
      }
      work.pop()
      const parent = work[work.length - 1]
      if (parent !== undefined) low[parent[0]] = Math.min(low[parent[0]] as number, low[v] as number)
      if (low[v] === index[v]) {
        let size = 0
        let w: number
        do {
          w = stack.pop() as number
          onStack[w] = 0
          of[w] = count
          size++
        } while (w !== v)
        sizes.set(count, size)
        count++
      }
    }
  }
  return { of, sizes }
}

/** A problem of one part's condition: `fields.N.visible_if` or `sections.N.visible_if`. */
export interface LogicProblem {
  readonly part: "fields" | "sections"
  readonly index: number
  readonly message: string
}

/**
 * Every problem of the form's conditions. `advance`: an `artist_advance` form, whose sections have no condition
 * and whose fields' conditions read only fields of their own section.
 */
export const checkFormLogic = (
  fields: ReadonlyArray<LogicField>,
  sections: ReadonlyArray<LogicSection>,
  advance: boolean
): ReadonlyArray<LogicProblem> => {
  const problems: Array<LogicProblem> = []
  if (!hasConditions(fields, sections)) return problems
  const slugs = slugIndex(fields)
  const slugSet: ReadonlySet<string> = new Set(slugs.keys())
  const sectionsById = sectionIndex(sections)
  const edges: Array<Array<number>> = [...fields.map(() => []), ...sections.map(() => [])]
  sections.forEach((section, s) => {
    if (!hasCondition(section)) return
    const add = (message: string) => problems.push({ part: "sections", index: s, message })
    if (advance) add("A section of an artist_advance form has no condition.")
    const check = checkCondition(section.visible_if, slugSet)
    check.problems.forEach(add)
    for (const slug of check.reads) {
      const f = slugs.get(slug) as number
      if ((fields[f] as LogicField).section_id === section.id) add(`The condition reads ${JSON.stringify(slug)}, a field of this section.`)
      else (edges[fields.length + s] as Array<number>).push(f)
    }
  })
  fields.forEach((field, f) => {
    const section = field.section_id === null ? undefined : sectionsById.get(field.section_id)
    if (section !== undefined && hasCondition(sections[section] as LogicSection)) {
      ;(edges[f] as Array<number>).push(fields.length + section)
    }
    if (!hasCondition(field)) return
    const add = (message: string) => problems.push({ part: "fields", index: f, message })
    const check = checkCondition(field.visible_if, slugSet)
    check.problems.forEach(add)
    for (const slug of check.reads) {
      const read = slugs.get(slug) as number
      const other = fields[read] as LogicField
      if (slug === field.slug) add("The condition reads its own field.")
      else if (advance && other.section_id !== field.section_id) {
        add(`The condition reads ${JSON.stringify(slug)}, a field of another section (artist_advance forms).`)
      } else (edges[f] as Array<number>).push(read)
    }
  })
  const { of, sizes } = components({ edges, fieldCount: fields.length })
  const nameOf = (node: number): string =>
    node < fields.length
      ? `field ${JSON.stringify((fields[node] as LogicField).slug)}`
      : `section ${JSON.stringify((sections[node - fields.length] as LogicSection).id)}`
  const onCycle = (node: number): boolean => (sizes.get(of[node] as number) ?? 0) > 1
  const cycleOf = (node: number): string =>
    edges.flatMap((_, m) => (of[m] === of[node] ? [nameOf(m)] : [])).join(", ")
  fields.forEach((field, f) => {
    if (hasCondition(field) && onCycle(f)) {
      problems.push({ part: "fields", index: f, message: `The condition is on a cycle of conditions: ${cycleOf(f)}.` })
    }
  })
  sections.forEach((section, s) => {
    const node = fields.length + s
    if (hasCondition(section) && onCycle(node)) {
      problems.push({ part: "sections", index: s, message: `The condition is on a cycle of conditions: ${cycleOf(node)}.` })
    }
  })
  return problems
}

/** A form's compiled conditions. */
export interface FormLogic {
  /** Per field (in the order given), whether it is active for `values` (own keys only are read). */
  readonly activity: (values: Readonly<Record<string, unknown>>) => ReadonlyArray<boolean>
}

type Step =
  | { readonly section: number; readonly condition: Evaluate }
  | { readonly field: number; readonly slug: string; readonly kind: ReadKind; readonly section: number; readonly condition: Evaluate | undefined; readonly read: boolean }

/**
 * The conditions of a form compiled once, or undefined when it has none (every field is active). Made for a
 * checked definition; on an unchecked one it never throws (a cycle is evaluated in the given order, its
 * readers reading null for what is not yet evaluated).
 */
export const compileFormLogic = (
  fields: ReadonlyArray<LogicField>,
  sections: ReadonlyArray<LogicSection>
): FormLogic | undefined => {
  if (!hasConditions(fields, sections)) return undefined
  const slugs = slugIndex(fields)
  const slugSet: ReadonlySet<string> = new Set(slugs.keys())
  const sectionsById = sectionIndex(sections)
  const readSlugs = new Set<string>()
  const reads = (condition: unknown): ReadonlyArray<number> => {
    const found = checkCondition(condition, slugSet).reads
    found.forEach((slug) => readSlugs.add(slug))
    return found.map((slug) => slugs.get(slug) as number)
  }
  // Dependencies: a section on the fields its condition reads, a field on its section and its own reads.
  const nodeCount = fields.length + sections.length
  const after: Array<Array<number>> = Array.from({ length: nodeCount }, () => [])
  const pending = new Int32Array(nodeCount)
  const depend = (node: number, on: number) => {
    if (node === on) return
    ;(after[on] as Array<number>).push(node)
    pending[node] = (pending[node] as number) + 1
  }
  sections.forEach((section, s) => {
    if (hasCondition(section)) for (const f of reads(section.visible_if)) depend(fields.length + s, f)
  })
  fields.forEach((field, f) => {
    const s = field.section_id === null ? undefined : sectionsById.get(field.section_id)
    if (s !== undefined && hasCondition(sections[s] as LogicSection)) depend(f, fields.length + s)
    if (hasCondition(field)) for (const r of reads(field.visible_if)) depend(f, r)
  })
  // Kahn's order, ties in the given order; whatever a cycle holds back follows in the given order.
  const order: Array<number> = []
  const placed = new Uint8Array(nodeCount)
  const ready: Array<number> = []
  for (let n = 0; n < nodeCount; n++) if (pending[n] === 0) ready.push(n)
  while (ready.length > 0) {
    ready.sort((a, b) => b - a)
    const n = ready.pop() as number
    order.push(n)
    placed[n] = 1
    for (const m of after[n] as Array<number>) {
      pending[m] = (pending[m] as number) - 1
      if (pending[m] === 0) ready.push(m)
    }
  }
  for (let n = 0; n < nodeCount; n++) if (placed[n] === 0) order.push(n)

  // Fields with no condition of their own or of their section that no condition reads are always active: no step.
  const steps: Array<Step> = order.flatMap((n): Array<Step> => {
    if (n >= fields.length) {
      const section = sections[n - fields.length] as LogicSection
      return hasCondition(section) ? [{ section: n - fields.length, condition: compileCondition(section.visible_if, slugSet) }] : []
    }
    const field = fields[n] as LogicField
    const s = field.section_id === null ? undefined : sectionsById.get(field.section_id)
    const gated = s !== undefined && hasCondition(sections[s] as LogicSection)
    if (!gated && !hasCondition(field) && !readSlugs.has(field.slug)) return []
    return [{
      field: n,
      slug: field.slug,
      kind: readKindOf(field.type),
      section: gated ? s : -1,
      condition: hasCondition(field) ? compileCondition(field.visible_if, slugSet) : undefined,
      read: readSlugs.has(field.slug)
    }]
  })
  const readList = [...readSlugs]
  const fieldCount = fields.length
  const sectionCount = sections.length

  return {
    activity: (values) => {
      const nullPrototype = Object.getPrototypeOf(values) === null
      const data = Object.create(null) as Record<string, unknown>
      for (const slug of readList) data[slug] = null
      const sectionActive: Array<boolean> = new Array<boolean>(sectionCount).fill(true)
      const active: Array<boolean> = new Array<boolean>(fieldCount).fill(true)
      for (const step of steps) {
        if (!("field" in step)) {
          sectionActive[step.section] = truthy(step.condition(data))
          continue
        }
        const on = (step.section < 0 || sectionActive[step.section] === true) &&
          (step.condition === undefined || truthy(step.condition(data)))
        active[step.field] = on
        if (step.read && on) {
          const value = nullPrototype || Object.hasOwn(values, step.slug) ? values[step.slug] : undefined
          data[step.slug] = readValue(step.kind, value)
        }
      }
      return active
    }
  }
}
