/**
 * Conformance of unique claims at the sizes §8 allows (CONTRACT §4: a unique value of any allowed length
 * works, never a 5xx): the longest string value and a 200-item multi-value field, claimed, looked up
 * and raced. The claims are built by the compiled rules, as the use cases build them.
 */
import { describe, expect } from "@effect/vitest"
import { Effect, Option } from "effect"
import type { FieldOption, FormField } from "../../forms/FormField.js"
import { seedIds } from "../../memory/conformanceSeed.js"
import { Submissions } from "../../publicForms/Submissions.js"
import { UniqueValues } from "../../publicForms/UniqueValues.js"
import { compileRules } from "../../rules/compileRules.js"
import { checkSizeLimits, defaultSizeLimits } from "../../rules/sizeLimits.js"
import { type ConformanceIt, draftOf, makeFresh, submitOf, values } from "../support.js"

const unbounded = { concurrency: "unbounded" } as const

// Code points of 1, 2, 3 and 4 UTF-8 bytes (no whitespace: values are trimmed), so a value cannot be
// compressed below PostgreSQL's index row limit (2,704 bytes) the way a repeated letter would be.
const ascii: readonly [number, number] = [0x21, 0x7e]
const pools: ReadonlyArray<readonly [number, number]> = [ascii, [0xc0, 0x24f], [0x4e00, 0x9fff], [0x1f300, 0x1f5ff]]

/** `length` pseudo-random code points from `ranges` after `prefix` (a run-unique name), seeded by the prefix. */
const noise = (prefix: string, length: number, ranges: ReadonlyArray<readonly [number, number]>): string => {
  let state = 0
  for (let i = 0; i < prefix.length; i++) state = (Math.imul(state, 31) + prefix.charCodeAt(i)) | 0
  const next = (): number => {
    // mulberry32
    state = (state + 0x6d2b79f5) | 0
    let t = Math.imul(state ^ (state >>> 15), 1 | state)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  const points: Array<string> = [...prefix]
  while (points.length < length) {
    const [low, high] = ranges[Math.floor(next() * ranges.length)] ?? ascii
    points.push(String.fromCodePoint(low + Math.floor(next() * (high - low + 1))))
  }
  return points.join("")
}

const field = (slug: string, options: ReadonlyArray<string> | null = null): FormField => ({
  id: `unique-${slug}`,
  section_id: null,
  slug,
  label: slug,
  type: options === null ? "text" : "select",
  is_required: false,
  options: options === null ? null : options.map((value): FieldOption => ({ value, label: value, tags: [] })),
  validation_rules: null,
  is_unique: true,
  position: 1,
  maps_to: null
})

/** The claims the compiled rules make of `sent`, after checking it is within the §8 size limits and valid. */
const claimsOf = (fields: ReadonlyArray<FormField>, sent: Record<string, unknown>) => {
  expect(checkSizeLimits(values(sent), defaultSizeLimits)).toBeUndefined()
  const result = compileRules(fields).strict(values(sent))
  expect(result.errors).toBeUndefined()
  return result.unique
}

export const uniqueValuesConformance = (it: ConformanceIt): void => {
  const fresh = makeFresh()
  const draft = (sent: Record<string, unknown>) =>
    Effect.flatMap(Submissions, (submissions) =>
      submissions.createOrGet(draftOf(seedIds.volunteer, fresh("key-unique-size"), values(sent), seedIds.festival)))

  /** Submits `first` and then `second` on two drafts: the first wins, the second fails UniqueTaken and stays a draft. */
  const claimTwice = (slug: string, fields: ReadonlyArray<FormField>, first: Record<string, unknown>, second: Record<string, unknown>) =>
    Effect.gen(function*() {
      const submissions = yield* Submissions
      const unique = yield* UniqueValues
      const claims = claimsOf(fields, first)
      const again = claimsOf(fields, second)
      expect(yield* unique.taken(seedIds.volunteer, claims)).toEqual([])
      const a = yield* draft(first)
      yield* submissions.submit(submitOf(a.submission, values(first), { claims }))
      expect(yield* unique.taken(seedIds.volunteer, claims)).toEqual([slug])
      expect(yield* unique.taken(seedIds.volunteer, again)).toEqual([slug])
      const b = yield* draft(second)
      const lost = yield* Effect.flip(submissions.submit(submitOf(b.submission, values(second), { claims: again })))
      expect(lost).toMatchObject({ _tag: "UniqueTaken", slugs: [slug] })
      const stored = yield* submissions.findInSchema(seedIds.volunteer, b.submission.id)
      expect(Option.map(stored, (s) => s.status)).toEqual(Option.some("draft"))
    })

  describe("unique claims at the size limits of §8", () => {
    const longest = defaultSizeLimits.maxStringLength

    it.effect("a 10,000-character value (printable ASCII) is claimed once", () => {
      const value = noise(fresh("long-ascii"), longest, [ascii])
      return claimTwice("nickname", [field("nickname")], { nickname: value }, { nickname: value })
    })

    it.effect("a 10,000-code-point value of multibyte characters (up to 4 UTF-8 bytes each) is claimed once", () => {
      const value = noise(fresh("long-multibyte"), longest, pools)
      expect([...value].length).toBe(longest)
      return claimTwice("nickname", [field("nickname")], { nickname: value }, { nickname: value })
    })

    it.effect("a 200-item value of a unique multi-value field is claimed once, whatever the items' order", () => {
      const options = Array.from({ length: defaultSizeLimits.maxArrayItems }, (_, i) => noise(fresh(`option-${i}`), 100, pools))
      const reversed = [...options].reverse()
      return claimTwice("interests", [field("interests", options)], { interests: options }, { interests: reversed })
    })

    it.effect("a value differing from a claimed 10,000-character one only in its last character is free", () =>
      Effect.gen(function*() {
        const submissions = yield* Submissions
        const unique = yield* UniqueValues
        const value = noise(fresh("long-near"), longest, pools)
        const claims = claimsOf([field("nickname")], { nickname: value })
        const { submission } = yield* draft({ nickname: value })
        yield* submissions.submit(submitOf(submission, values({ nickname: value }), { claims }))
        const points = [...value]
        const near = [...points.slice(0, -1), points.at(-1) === "x" ? "y" : "x"].join("")
        expect(yield* unique.taken(seedIds.volunteer, claimsOf([field("nickname")], { nickname: near }))).toEqual([])
      }))

    it.effect("a submit that loses two claims names both slugs, in the order of its claims", () =>
      Effect.gen(function*() {
        const submissions = yield* Submissions
        const sent = { nickname: noise(fresh("long-two"), longest, pools), email: `${fresh("two")}@example.org` }
        const claims = claimsOf([field("nickname"), { ...field("email"), type: "email" }], sent)
        expect(claims.map((c) => c.slug)).toEqual(["nickname", "email"])
        const first = yield* draft(sent)
        yield* submissions.submit(submitOf(first.submission, values(sent), { claims }))
        const second = yield* draft(sent)
        const lost = yield* Effect.flip(submissions.submit(submitOf(second.submission, values(sent), { claims })))
        expect(lost).toMatchObject({ _tag: "UniqueTaken", slugs: ["nickname", "email"] })
      }))

    it.effect("a submit that loses one of its two claims keeps neither and stays a draft", () =>
      Effect.gen(function*() {
        const submissions = yield* Submissions
        const unique = yield* UniqueValues
        const fields = [field("nickname"), { ...field("email"), type: "email" as const }]
        const held = { nickname: fresh("held-nick") }
        yield* submissions.submit(submitOf((yield* draft(held)).submission, values(held), { claims: claimsOf(fields, held) }))
        const sent = { nickname: held.nickname, email: `${fresh("free")}@example.org` }
        const claims = claimsOf(fields, sent)
        const second = yield* draft(sent)
        const lost = yield* Effect.flip(submissions.submit(submitOf(second.submission, values(sent), { claims })))
        expect(lost).toMatchObject({ _tag: "UniqueTaken", slugs: ["nickname"] })
        expect(yield* unique.taken(seedIds.volunteer, claims)).toEqual(["nickname"])
        const stored = yield* submissions.findInSchema(seedIds.volunteer, second.submission.id)
        expect(Option.map(stored, (s) => [s.status, s.version])).toEqual(Option.some(["draft", second.submission.version]))
      }))

    it.effect("8 drafts claiming one 10,000-character value in parallel: exactly one wins", () =>
      Effect.gen(function*() {
        const submissions = yield* Submissions
        const value = noise(fresh("long-race"), longest, pools)
        const claims = claimsOf([field("nickname")], { nickname: value })
        const drafts = yield* Effect.all(Array.from({ length: 8 }, () => draft({ nickname: value })), unbounded)
        const outcomes = yield* Effect.all(
          drafts.map(({ submission }) => Effect.result(submissions.submit(submitOf(submission, values({ nickname: value }), { claims })))),
          unbounded
        )
        expect(outcomes.filter((o) => o._tag === "Success").length).toBe(1)
        for (const o of outcomes) {
          if (o._tag === "Failure") expect(o.failure).toMatchObject({ _tag: "UniqueTaken", slugs: ["nickname"] })
        }
      }))
  })
}
