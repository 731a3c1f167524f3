import { describe, expect, it } from "@effect/vitest"
import { checkDefinition } from "../organiser/forms/checkDefinition.js"
import { cases } from "../testing/rules/rulesTestKit.js"
import { accepts, contentTypeOf, fileIdsOf, fileRuleProblems, MiB } from "./fileRules.js"

describe("the file field's value", () => {
  cases("a required file field: ids only, counts and `in` are the files feature's", {
    type: "file",
    required: true,
    rules: { min: 2, max: 3 }
  }, [
    [undefined, ["required"]],
    [[], ["required"]],
    ["", ["required"]],
    ["id-1", []],
    [["id-1", "id-2"], []],
    [["id-1"], []], // min is counted against the stored uploads, not here
    [[1], ["invalid"]],
    [{ id: "x" }, ["invalid"]],
    [12, ["invalid"]],
    [true, ["invalid"]]
  ])
  it("a single string is one id; an array of strings is kept as sent", () => {
    expect(fileIdsOf("a")).toEqual(["a"])
    expect(fileIdsOf(["a", " b "])).toEqual(["a", " b "])
    expect(fileIdsOf([1])).toBeUndefined()
  })
})

describe("accept and the content type", () => {
  it("an extension admits the type of its table entry only", () => {
    expect(accepts([".pdf"], "application/pdf")).toBe(true)
    expect(accepts([".pdf"], "text/html")).toBe(false)
    expect(accepts([".pdf"], "application/octet-stream")).toBe(false)
    expect(accepts([".PDF"], "application/pdf")).toBe(true)
  })
  it("type/* admits its types, but image/* never SVG, HTML or XML", () => {
    expect(accepts(["image/*"], "image/png")).toBe(true)
    expect(accepts(["image/*"], "image/svg+xml")).toBe(false)
    expect(accepts(["image/*"], "application/pdf")).toBe(false)
    expect(accepts(["text/*"], "text/csv")).toBe(true)
  })
  it("no accept admits anything; an exact MIME type only itself", () => {
    expect(accepts(undefined, "application/x-anything")).toBe(true)
    expect(accepts(["application/pdf"], "application/pdf")).toBe(true)
    expect(accepts(["application/pdf"], "application/zip")).toBe(false)
  })
  it("content without a signature is text by a .txt or .csv name, else octet-stream; a signature wins over the name", () => {
    expect(contentTypeOf(undefined, "notes.TXT")).toBe("text/plain")
    expect(contentTypeOf(undefined, "list.csv")).toBe("text/csv")
    expect(contentTypeOf(undefined, "rider.pdf")).toBe("application/octet-stream")
    expect(contentTypeOf(undefined, "page.html")).toBe("application/octet-stream")
    expect(contentTypeOf("image/png", "rider.pdf")).toBe("image/png")
  })
})

describe("the definition check of file rules", () => {
  it("max_bytes is a whole number above 0 and at most the server's cap; accept a list of known entries", () => {
    expect(fileRuleProblems({ max_bytes: 5 * MiB, accept: [".pdf", "image/*", "application/zip"] }, 25 * MiB)).toEqual([])
    expect(fileRuleProblems({ max_bytes: 26 * MiB }, 25 * MiB).map((p) => [p.member, p.rule])).toEqual([["max_bytes", "max"]])
    expect(fileRuleProblems({ max_bytes: 0.5 }, 25 * MiB).map((p) => [p.member, p.rule])).toEqual([["max_bytes", "invalid"]])
    expect(fileRuleProblems({ max_bytes: 0 }, 25 * MiB).map((p) => p.rule)).toEqual(["invalid"])
    for (const accept of [[], [".nope"], ["Image/PNG"], ["pdf"], "image/*", [1]]) {
      expect(fileRuleProblems({ accept }, 25 * MiB).map((p) => [p.member, p.rule])).toEqual([["accept", "invalid"]])
    }
  })
  const field = (type: string, rules: Record<string, unknown>) => ({
    id: "f1",
    section_id: null,
    slug: "rider",
    label: "Rider",
    type,
    is_required: false,
    options: null,
    validation_rules: rules,
    is_unique: false,
    position: 0,
    maps_to: null
  })
  it("checkDefinition reports them at their member, with the configured cap; on other types they are invalid", () => {
    const problems = (type: string, rules: Record<string, unknown>, fileMaxBytes?: number) =>
      checkDefinition({
        type: "registration",
        sections: [],
        fields: [field(type, rules)],
        ...(fileMaxBytes === undefined ? {} : { fileMaxBytes })
      }).map((p) => [p.path, p.error.rule])
    expect(problems("file", { max_bytes: 26 * MiB })).toEqual([["fields.0.validation_rules.max_bytes", "max"]])
    expect(problems("file", { max_bytes: 26 * MiB }, 30 * MiB)).toEqual([])
    expect(problems("file", { accept: [".exe"] })).toEqual([["fields.0.validation_rules.accept", "invalid"]])
    expect(problems("file", { max_bytes: 1024, accept: [".pdf"], max: 3 })).toEqual([])
    expect(problems("text", { accept: [".pdf"] })).toEqual([["fields.0.validation_rules.accept", "invalid"]])
  })
})
