/** Conformance of ValueTargets: atomic merges into the artist's profile and the engagement's advance. */
import { describe, expect } from "@effect/vitest"
import { Effect, Option } from "effect"
import { ValueTargets } from "../../ports/ValueTargets.js"
import { makeFresh, plain, values } from "../conformance/support.js"
import type { PortalConformanceIt } from "./engagementsConformance.js"
import { portalIds } from "./portalFixture.js"

export const valueTargetsConformance = (it: PortalConformanceIt): void => {
  const fresh = makeFresh()
  const read = Effect.gen(function*() {
    const found = yield* (yield* ValueTargets).read(portalIds.confValues)
    if (Option.isNone(found)) throw new Error("the values engagement was not found")
    return { profile: plain(found.value.profile), advance: plain(found.value.advance) }
  })

  describe("ValueTargets", () => {
    it.effect("merges into profile and advance, keeping other keys; JSON values round-trip", () =>
      Effect.gen(function*() {
        const targets = yield* ValueTargets
        const a = fresh("a").replace(/-/g, "_")
        const b = fresh("b").replace(/-/g, "_")
        const before = yield* read
        expect(yield* targets.apply({
          engagement_id: portalIds.confValues,
          artist: values({ [a]: "x", [`${a}_n`]: 1.5, [`${a}_list`]: ["vegan", 2] }),
          engagement: values({ [b]: true, [`${b}_null`]: null })
        })).toBe(true)
        expect(yield* targets.apply({ engagement_id: portalIds.confValues, artist: values({ [a]: "y" }), engagement: values({}) })).toBe(true)
        const after = yield* read
        expect(after.profile).toEqual({ ...before.profile, [a]: "y", [`${a}_n`]: 1.5, [`${a}_list`]: ["vegan", 2] })
        expect(after.advance).toEqual({ ...before.advance, [b]: true, [`${b}_null`]: null })
      }))

    it.effect("an unknown engagement is false and writes nothing; read of it is None", () =>
      Effect.gen(function*() {
        const targets = yield* ValueTargets
        const before = yield* read
        expect(yield* targets.apply({ engagement_id: "en-unknown", artist: values({ x: 1 }), engagement: values({ y: 1 }) })).toBe(false)
        expect(Option.isNone(yield* targets.read("en-unknown"))).toBe(true)
        expect(yield* read).toEqual(before)
      }))

    it.effect("20 parallel applies of different keys all land (no lost update)", () =>
      Effect.gen(function*() {
        const targets = yield* ValueTargets
        const prefix = fresh("p").replace(/-/g, "_")
        yield* Effect.forEach(Array.from({ length: 20 }, (_, i) => i), (i) =>
          targets.apply({
            engagement_id: portalIds.confValues,
            artist: values({ [`${prefix}_${i}`]: i }),
            engagement: values({ [`${prefix}_${i}`]: -i - 1 })
          }), { concurrency: "unbounded" })
        const after = yield* read
        for (let i = 0; i < 20; i++) {
          expect([after.profile[`${prefix}_${i}`], after.advance[`${prefix}_${i}`]]).toEqual([i, -i - 1])
        }
      }))
  })
}
