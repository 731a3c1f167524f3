import { describe, expect, it } from "@effect/vitest"
import { parseInstant } from "../src/submissionsOut/submissionsQuery.js"

describe("parseInstant (`since`)", () => {
  it("reads a date as its midnight UTC and a date-time with its zone", () => {
    expect(parseInstant("2027-08-01")).toBe(Date.UTC(2027, 7, 1))
    expect(parseInstant("2027-08-01T10:30:00+02:00")).toBe(Date.UTC(2027, 7, 1, 8, 30))
    expect(parseInstant("2027-08-01T10:30Z")).toBe(Date.UTC(2027, 7, 1, 10, 30))
  })

  it("reads the years 0–99 as written, not as 1900–1999", () => {
    expect(new Date(parseInstant("0050-01-01") ?? Number.NaN).toISOString()).toBe("0050-01-01T00:00:00.000Z")
    expect(new Date(parseInstant("0000-02-29") ?? Number.NaN).toISOString()).toBe("0000-02-29T00:00:00.000Z")
    expect(new Date(parseInstant("0099-12-31T23:59:59Z") ?? Number.NaN).toISOString()).toBe("0099-12-31T23:59:59.000Z")
  })

  it("refuses dates that do not exist, times out of range and times without a zone", () => {
    for (const text of ["2027-02-29", "0050-02-29", "2027-13-01", "2027-08-01T24:00:00Z", "2027-08-01T10:30:00", "27-08-01", ""]) {
      expect(parseInstant(text)).toBeUndefined()
    }
  })
})
