/** Time zones of events and their slots through HTTP: names checked, inherited, instants in both slot lists. */
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { adminCall, data, json, keyOf, list } from "./adminSupport.js"
import { backends, reportSkippedPostgres } from "./backends.js"
import { liveOptions, testServer } from "./harness.js"

const fieldsOf = (body: Record<string, unknown>) =>
  (body["error"] as { fields?: Record<string, ReadonlyArray<{ rule: string }>> }).fields ?? {}

for (const backend of backends) {
  layer(testServer(backend), liveOptions)(`time zones (${backend})`, (it) => {
    it.effect("an unknown zone or an offset is 422 invalid; a known one is stored as the zone data spells it", () =>
      Effect.gen(function*() {
        const { key } = yield* keyOf("org-t")
        for (const timezone of ["Nope/Zone", "+01:00", 3, "", "Europe/Amsterdam\u0000"]) {
          const answer = yield* adminCall(key, "POST", "/admin/events", { name: "Fest", timezone })
          assert.strictEqual(answer.status, 422, JSON.stringify(timezone))
          assert.deepStrictEqual(fieldsOf(json(answer))["timezone"]?.map((e) => e.rule), ["invalid"])
        }
        const created = data(yield* adminCall(key, "POST", "/admin/events", { name: "Fest", timezone: "europe/amsterdam" }))
        assert.deepStrictEqual([created["timezone"], created["effective_timezone"]], ["Europe/Amsterdam", "Europe/Amsterdam"])
        const plain = data(yield* adminCall(key, "POST", "/admin/events", { name: "Plain" }))
        assert.deepStrictEqual([plain["timezone"], plain["effective_timezone"]], [null, "UTC"])
        const patched = yield* adminCall(key, "PATCH", `/admin/events/${String(plain["id"])}`, { timezone: "Mars/Olympus" })
        assert.strictEqual(patched.status, 422)
      }))

    it.effect("slots: instants in the parent's zone, across midnight and daylight-saving nights; a zone change moves them", () =>
      Effect.gen(function*() {
        const { key } = yield* keyOf("org-t")
        const fest = data(yield* adminCall(key, "POST", "/admin/events", { name: "Fest", timezone: "Europe/Amsterdam" }))
        const day = data(yield* adminCall(key, "POST", "/admin/events", { name: "Day", parent_event_id: fest["id"] }))
        assert.strictEqual(day["effective_timezone"], "Europe/Amsterdam")
        const slots = `/admin/events/${String(day["id"])}/time-slots`
        const night = yield* adminCall(key, "POST", slots, { name: "Night", date: "2027-08-20", start_time: "22:00", end_time: "02:00" })
        assert.strictEqual(night.status, 201)
        assert.deepStrictEqual(
          [data(night)["starts_at"], data(night)["ends_at"], data(night)["duration_hours"]],
          ["2027-08-20T20:00:00.000Z", "2027-08-21T00:00:00.000Z", 4]
        )
        const spring = data(yield* adminCall(key, "POST", slots, { name: "Spring", date: "2027-03-27", start_time: "22:00", end_time: "06:00" }))
        assert.strictEqual(spring["duration_hours"], 7)
        const autumn = data(yield* adminCall(key, "POST", slots, { name: "Autumn", date: "2027-10-30", start_time: "22:00", end_time: "22:00" }))
        assert.strictEqual(autumn["duration_hours"], 25)
        // 02:00–03:00 on the spring-forward night: both ends are 03:00 CEST, so the end is not after the start.
        const gap = yield* adminCall(key, "POST", slots, { name: "Gap", date: "2027-03-28", start_time: "02:00", end_time: "03:00" })
        assert.strictEqual(gap.status, 422)
        assert.deepStrictEqual(fieldsOf(json(gap))["end_time"]?.map((e) => e.rule), ["invalid"])
        const moved = yield* adminCall(key, "PATCH", `/admin/events/${String(fest["id"])}`, { timezone: "America/New_York" })
        assert.strictEqual(moved.status, 200)
        const listed = list(yield* adminCall(key, "GET", slots))
        assert.deepStrictEqual(
          listed.filter((s) => s["name"] === "Night").map((s) => s["starts_at"]),
          ["2027-08-21T02:00:00.000Z"]
        )
      }))
  })
}

reportSkippedPostgres("time zones")
