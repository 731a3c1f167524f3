/**
 * `<forms-portal token="…" base-url="…">`: an artist's portal (CONTRACT §5, §14, §21): the engagement, each
 * section with its status, due date and overdue mark, and each available section's form with its draft values
 * and its own submit, autosaved as a draft while it is filled in; a locked section's form is shown read-only,
 * without a submit.
 */
import { type Answer, call, waitText } from "./api.js"
import { ElementBase, h, setText } from "./dom.js"
import type { Field } from "./fields.js"
import { buildFormView } from "./FormView.js"
import { sectionSaves } from "./sectionSaves.js"
import { adoptStyles, baseUrlOf } from "./styles.js"

interface SummarySection {
  readonly id: string
  readonly name: string
  readonly status: string
  readonly submitted_at: string | null
  readonly available: boolean
  readonly locked: boolean
  readonly due_at: string | null
  readonly overdue: boolean
}
interface Summary {
  readonly engagement: { readonly event: { readonly name: string } }
  readonly artist: { readonly name: string }
  readonly sections: ReadonlyArray<SummarySection>
}
interface SectionView {
  readonly section: { readonly status: string; readonly submitted_at: string | null }
  readonly fields: ReadonlyArray<Field>
  readonly values: Record<string, unknown>
}

const statusText = (status: string, at: string | null): string =>
  status === "submitted" ? `Submitted${at === null ? "" : " on " + at.slice(0, 10)}` : "Not submitted yet"

const dueText = (s: SummarySection): string | null =>
  s.due_at === null ? null : `due ${s.due_at.slice(0, 10)}`

const lockedText = "Locked: the organiser no longer takes changes to this section."

const failureText = (answer: Exclude<Answer, { kind: "ok" }>): string => {
  if (answer.kind === "network") return "No connection. Try again when you are online."
  if (answer.code === "PORTAL_NOT_FOUND") return "This portal link is not valid. Ask the organiser for a new one."
  if (answer.code === "ARTIST_GONE") return "This portal is no longer available."
  if (answer.code === "SECTION_NOT_FOUND") return "This section is not available."
  if (answer.code === "SECTION_LOCKED") return lockedText
  if (answer.status === 429) return `Too many requests. Try again ${waitText(answer.retryAfter)}.`
  return "The portal is unavailable right now. Please try again in a moment."
}

export class FormsPortal extends ElementBase {
  private readonly root = this.attachShadow({ mode: "open" })

  constructor() {
    super()
    adoptStyles(this.root)
  }

  private get api(): string {
    return `${baseUrlOf(this)}/p/artist/${encodeURIComponent(this.getAttribute("token") ?? "")}`
  }

  connectedCallback(): void {
    void this.load()
  }

  private async load(): Promise<void> {
    this.root.replaceChildren(h("p", { class: "state" }, "Loading the portal…"))
    const answer = await call(this.api)
    if (answer.kind !== "ok") {
      return this.root.replaceChildren(h("div", { class: "notice bad", role: "alert" }, failureText(answer)))
    }
    const summary = answer.data as Summary
    const statuses = new Map<string, HTMLElement>()
    const list = h("ul", { class: "sections" }, ...summary.sections.map((s) => {
      const status = h("span", {}, statusText(s.status, s.submitted_at))
      statuses.set(s.id, status)
      const due = dueText(s)
      return h(
        "li",
        {},
        h("strong", {}, s.name),
        ": ",
        status,
        due === null ? null : h("span", { class: "due" }, ` (${due})`),
        s.overdue ? h("span", { class: "overdue" }, " Overdue") : null,
        s.locked ? h("span", { class: "locked" }, " Locked") : null,
        s.available ? null : " (not available)"
      )
    }))
    this.root.replaceChildren(
      h("h1", {}, summary.artist.name),
      h("p", { class: "sub" }, summary.engagement.event.name),
      h("h2", {}, "Your advance"),
      list
    )
    for (const [i, section] of summary.sections.entries()) {
      if (!section.available) continue
      const status = statuses.get(section.id)
      const region = h("section", { "aria-labelledby": `s${i}-title` }, h("h2", { id: `s${i}-title` }, section.name))
      this.root.append(region)
      await this.loadSection(section, i, region, status)
    }
  }

  private async loadSection(section: SummarySection, index: number, region: HTMLElement, status: HTMLElement | undefined): Promise<void> {
    const url = `${this.api}/sections/${encodeURIComponent(section.id)}`
    const answer = await call(url)
    if (answer.kind !== "ok") return region.append(h("div", { class: "notice bad" }, failureText(answer)))
    const data = answer.data as SectionView
    const view = buildFormView([{ legend: null, fields: data.fields }], `s${index}f`, `Submit ${section.name}`)
    view.fill(data.values)
    const notice = h("div", { role: "alert" })
    const state = h("p", { class: "state", role: "status" })
    region.append(notice, view.form, state)
    const saves = sectionSaves(url, () => view.values(), {
      saving: () => setText(state, "Saving…"),
      done: (outcome) => {
        if (outcome.kind === "saved") {
          view.showErrors({})
          return setText(state, "Saved")
        }
        const answer = outcome.answer
        if (answer.kind === "network") return setText(state, "Offline — will retry")
        if (answer.code === "SECTION_LOCKED") return lock()
        if (answer.status === 422) {
          view.showErrors(answer.fields)
          return setText(state, "Not saved: check the marked fields.")
        }
        setText(state, answer.status === 429 || answer.status >= 500 ? "Not saved yet — will retry" : failureText(answer))
      }
    })
    view.form.addEventListener("input", (event) => {
      const field = event.composedPath().find((n): n is HTMLElement => n instanceof HTMLElement && n.dataset["slug"] !== undefined)
      if (field?.dataset["slug"] !== undefined) saves.edited(field.dataset["slug"])
    })
    /** Read-only from now on: the values stay visible, nothing can be changed or sent. */
    const lock = () => {
      saves.stop()
      for (const control of view.form.querySelectorAll("input, select, textarea")) control.setAttribute("disabled", "")
      view.form.querySelector("button")?.remove()
      view.form.querySelector("p.sub")?.remove()
      region.insertBefore(h("p", { class: "notice" }, lockedText), notice)
    }
    if (section.locked) return lock()
    view.form.addEventListener("submit", (event) => {
      event.preventDefault()
      void (async () => {
        const button = view.form.querySelector("button")
        button?.setAttribute("disabled", "")
        setText(state, "Sending…")
        notice.replaceChildren()
        const result = await call(url, { method: "POST", body: { values: view.values() } })
        button?.removeAttribute("disabled")
        setText(state, "")
        if (result.kind === "ok") {
          const done = result.data as SectionView
          view.showErrors({})
          if (status !== undefined) setText(status, statusText(done.section.status, done.section.submitted_at))
          setText(state, `Thank you! ${section.name} was submitted.`)
          return
        }
        if (result.kind === "error" && result.code === "SECTION_LOCKED") {
          lock()
          status?.parentElement?.append(h("span", { class: "locked" }, " Locked"))
          return
        }
        if (result.kind === "error" && result.status === 422) {
          const first = view.showErrors(result.fields)
          notice.replaceChildren(h("div", { class: "notice bad" }, "Not sent yet: please correct the marked fields."))
          first?.focusTarget().focus()
          return
        }
        notice.replaceChildren(h("div", { class: "notice bad" }, failureText(result)))
      })()
    })
  }
}
