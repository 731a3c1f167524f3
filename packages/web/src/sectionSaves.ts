/**
 * The autosave of one portal section (CONTRACT §21, section drafts): the values of the fields edited since the
 * last save are PUT after a pause in typing, at most once per 5 seconds, so a half-filled section survives a
 * closed tab. One save at a time; a failed one is retried.
 */
import { type Answer, call } from "./api.js"

/** The pause after the last edit before a save. */
export const pauseMs = 1000
/** At most one save per this many ms. */
export const minIntervalMs = 5000
const retryMs = 5000

export type SaveOutcome = { readonly kind: "saved" } | { readonly kind: "failed"; readonly answer: Exclude<Answer, { kind: "ok" }> }

export interface SectionSaves {
  /** A field was edited: a save follows the pause (and the 5-second spacing). */
  readonly edited: (slug: string) => void
  /** No more saves (the section was submitted or locked): pending edits are dropped. */
  readonly stop: () => void
}

export const sectionSaves = (
  url: string,
  read: () => Record<string, unknown>,
  report: { readonly saving: () => void; readonly done: (outcome: SaveOutcome) => void }
): SectionSaves => {
  const changed = new Set<string>()
  let timer: ReturnType<typeof setTimeout> | undefined
  let lastSave = -Infinity
  let saving = false
  let stopped = false

  const schedule = (ms: number) => {
    clearTimeout(timer)
    timer = setTimeout(() => void save(), Math.max(ms, lastSave + minIntervalMs - Date.now()))
  }

  const save = async (): Promise<void> => {
    if (stopped || changed.size === 0) return
    if (saving) return schedule(pauseMs)
    saving = true
    lastSave = Date.now()
    const all = read()
    const sent: Record<string, unknown> = Object.create(null)
    for (const slug of changed) sent[slug] = all[slug]
    changed.clear()
    report.saving()
    const answer = await call(url, { method: "PUT", body: { values: sent } })
    saving = false
    if (stopped) return
    if (answer.kind === "ok") return report.done({ kind: "saved" })
    // Offline or unavailable: the same values again later (unless edited meanwhile, then the newer ones).
    if (answer.kind === "network" || answer.status >= 500 || answer.status === 429) {
      for (const slug of Object.keys(sent)) changed.add(slug)
      schedule(retryMs)
    }
    report.done({ kind: "failed", answer })
  }

  return {
    edited: (slug) => {
      if (stopped) return
      changed.add(slug)
      schedule(pauseMs)
    },
    stop: () => {
      stopped = true
      clearTimeout(timer)
      changed.clear()
    }
  }
}
