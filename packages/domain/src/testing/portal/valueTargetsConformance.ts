/** Conformance of ValueTargets: atomic merges into the artist's profile and the engagement's advance. */
import { describe, expect } from "@effect/vitest"
import { Effect, Option } from "effect"
import { portalIds } from "../../memory/portal/portalFixture.js"
import { ValueTargets } from "../../portal/ValueTargets.js"
import { makeFresh, plain, values } from "../support.js"
import type { PortalConformanceIt } from "./engagementsConformance.js"

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

    it.effect("with a source: an older version of the same draft than the last applied merges nothing; the same, a newer one or another draft merges", () =>
      Effect.gen(function*() {
        const targets = yield* ValueTargets
        const key = fresh("k").replace(/-/g, "_")
        const draft = "00000000-0000-4000-8000-00000000a001"
        const other = "00000000-0000-4000-8000-00000000a002"
        const apply = (value: string, source: { readonly submission_id: string; readonly version: number }) =>
          targets.apply({ engagement_id: portalIds.confValues, artist: values({ [key]: value }), engagement: values({ [key]: value }), source })
        const now = Effect.map(read, (r) => [r.profile[key], r.advance[key]])
        expect(yield* apply("v3", { submission_id: draft, version: 3 })).toBe(true)
        // Late: found (true), and nothing merged, neither into the advance nor into the profile.
        expect(yield* apply("v2", { submission_id: draft, version: 2 })).toBe(true)
        expect(yield* now).toEqual(["v3", "v3"])
        yield* apply("v3 again", { submission_id: draft, version: 3 })
        expect(yield* now).toEqual(["v3 again", "v3 again"])
        yield* apply("v4", { submission_id: draft, version: 4 })
        yield* apply("v3 late", { submission_id: draft, version: 3 })
        expect(yield* now).toEqual(["v4", "v4"])
        // Another draft (the first erased, a new one made): its values merge, whatever its version.
        yield* apply("new draft", { submission_id: other, version: 1 })
        expect(yield* now).toEqual(["new draft", "new draft"])
      }))

    it.effect("racing applies of versions 1 to 10 of one draft: the advance ends with version 10's values", () =>
      Effect.gen(function*() {
        const targets = yield* ValueTargets
        const key = fresh("race").replace(/-/g, "_")
        const draft = "00000000-0000-4000-8000-00000000a003"
        yield* Effect.forEach(Array.from({ length: 10 }, (_, i) => 10 - i), (version) =>
          targets.apply({
            engagement_id: portalIds.confValues,
            artist: values({}),
            engagement: values({ [key]: version }),
            source: { submission_id: draft, version }
          }), { concurrency: "unbounded" })
        expect((yield* read).advance[key]).toBe(10)
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
