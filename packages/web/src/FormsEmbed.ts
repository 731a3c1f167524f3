/**
 * `<forms-embed token="…" base-url="…">`: a public form (CONTRACT §3, §14). The draft is created with a
 * random idempotency key kept in localStorage per token; typing pauses and hiding the page save it; a
 * reload resumes it from the create replay; failed saves retry with backoff; submit shows the server's
 * messages beside their fields or the confirmation.
 */
import { type Answer, call, type FieldErrors, waitText } from "./api.js"
import { ElementBase, h, setText } from "./dom.js"
import { type Draft, storage } from "./draft.js"
import { createDraft, saveChanges } from "./draftSaves.js"
import { buildFormView, type FormDefinition, type FormView, groupsOf } from "./FormView.js"
import { languageSwitch } from "./languageSwitch.js"
import { prefillOf } from "./prefill.js"
import { fetchSlots, loadSlots } from "./slots.js"
import { adoptStyles, baseUrlOf } from "./styles.js"

const pauseMs = 600
const maxBackoffMs = 30_000

export class FormsEmbed extends ElementBase {
  static readonly observedAttributes = ["token", "base-url", "lang"]
  private readonly root = this.attachShadow({ mode: "open" })
  private view: FormView | undefined
  private draft: Draft | undefined
  private state = h("p", { class: "state", role: "status", "aria-live": "polite" })
  private notice = h("div", { role: "alert" })
  private timer: ReturnType<typeof setTimeout> | undefined
  private saving: Promise<void> | undefined
  /** Slugs edited since their last successful save: a save sends only them, so two tabs do not undo each other. */
  private readonly changed = new Set<string>()
  /** The messages shown beside the fields: a submit sets them all, a save updates only the fields it sent. */
  private errors: Record<string, FieldErrors[string]> = {}
  /** The values a new draft is created with (from the page address), until it is. */
  private prefill: Record<string, unknown> = {}
  private backoff = 1000
  private finished = false
  private generation = 0

  constructor() {
    super()
    adoptStyles(this.root)
  }

  private get token(): string {
    return this.getAttribute("token") ?? ""
  }
  private get api(): string {
    return `${baseUrlOf(this)}/public/forms/${encodeURIComponent(this.token)}`
  }
  /** `?lang=…` when the element names a language: the form's texts in it, and the draft records it as chosen. */
  private get langQuery(): string {
    const lang = this.getAttribute("lang")
    return lang === null || lang === "" ? "" : `?lang=${encodeURIComponent(lang)}`
  }
  private get storageKey(): string {
    return `forms-embed:${baseUrlOf(this)}:${this.token}`
  }

  connectedCallback(): void {
    this.started = true
    document.addEventListener("visibilitychange", this.onHidden)
    window.addEventListener("pagehide", this.onHidden)
    window.addEventListener("online", this.onOnline)
    void this.load()
  }
  disconnectedCallback(): void {
    this.started = false
    document.removeEventListener("visibilitychange", this.onHidden)
    window.removeEventListener("pagehide", this.onHidden)
    window.removeEventListener("online", this.onOnline)
    clearTimeout(this.timer)
  }
  attributeChangedCallback(name: string, old: string | null, value: string | null): void {
    // An upgrade reports every attribute before connectedCallback runs: only later changes load again.
    if (!this.started || old === value) return
    if (old !== null || name === "lang") void this.load()
  }
  private started = false

  /**
   * The language switch: what was typed is saved first, then the form is loaded again in `tag`; its draft (kept per
   * token) comes back with its values. On the hosted page the page's language and address follow.
   */
  private readonly chooseLanguage = async (tag: string): Promise<void> => {
    clearTimeout(this.timer)
    await this.sync()
    if (this.hasAttribute("data-page")) {
      document.documentElement.lang = tag
      const address = new URL(location.href)
      address.searchParams.set("lang", tag)
      history.replaceState(history.state, "", address)
    }
    // What is still unsaved (a save that failed, a field left since) goes over the draft's values in the new view.
    this.carried = this.view === undefined ? {} : this.pending(this.view)
    this.refocusSwitch = true
    this.setAttribute("lang", tag)
  }
  private refocusSwitch = false
  private carried: Record<string, unknown> = {}

  private show(...nodes: ReadonlyArray<Node>): void {
    this.root.replaceChildren(...nodes)
  }
  private message(text: string, bad = true): void {
    this.show(h("div", { class: bad ? "notice bad" : "notice", role: "alert" }, text))
  }

  private async load(): Promise<void> {
    const generation = ++this.generation
    // The view being replaced reports nothing more (removing a field the visitor left fires its `change`).
    this.view?.form.removeEventListener("input", this.onEdit)
    this.view?.form.removeEventListener("change", this.onEdit)
    this.draft = undefined
    this.finished = false
    this.show(h("p", { class: "state" }, "Loading the form…"))
    // `lang`: the form's texts in that language when it is one of the form's (else the server chooses by Accept-Language).
    const answer = await call(`${this.api}${this.langQuery}`)
    if (generation !== this.generation) return
    if (answer.kind !== "ok") return this.loadFailed(answer)
    const definition = answer.data as FormDefinition
    const heading = [
      languageSwitch(definition.languages ?? [], definition.language ?? "", (tag) => void this.chooseLanguage(tag)),
      h("h1", {}, definition.name),
      definition.event === null ? null : h("p", { class: "sub" }, definition.event.name)
    ]
    if (!definition.accepts_submissions) {
      return this.show(...heading.filter((n) => n !== null), h("div", { class: "notice", role: "alert" }, "This form is closed: it does not take answers now."))
    }
    const groups = groupsOf(definition)
    const slots = await loadSlots(this.api, groups.flatMap((group) => group.fields), call)
    if (generation !== this.generation) return
    const view = buildFormView(groups, "f", "Submit", slots)
    this.view = view
    view.form.addEventListener("input", this.onEdit)
    view.form.addEventListener("change", this.onEdit)
    view.form.addEventListener("submit", (event) => {
      event.preventDefault()
      void this.submit()
    })
    this.show(...heading.filter((n) => n !== null), this.notice, view.form, this.state)
    view.fill(this.carried)
    this.carried = {}
    if (this.refocusSwitch) {
      this.refocusSwitch = false
      this.root.querySelector<HTMLSelectElement>("select#forms-language")?.focus()
    }
    if (storage.get(this.storageKey) !== null) return this.resume()
    // A new draft: the page address's query parameters named after fields are its first values, sent with its create.
    this.prefill = prefillOf(location.search, groups.flatMap((group) => group.fields))
    if (Object.keys(this.prefill).length > 0) {
      view.fill(this.prefill)
      await this.sync()
    }
  }

  private loadFailed(answer: Exclude<Answer, { kind: "ok" }>): void {
    if (answer.kind === "network") return this.message("The form could not be loaded: no connection. Reload the page to try again.")
    if (answer.status === 404) return this.message("This form does not exist, or it is no longer published.")
    if (answer.status === 429) return this.message(`Too many requests. Try again ${waitText(answer.retryAfter)}.`)
    this.message("The form is unavailable right now. Reload the page in a moment to try again.")
  }

  /** The create replay answers the stored draft with its values (CONTRACT §3). */
  private async resume(): Promise<void> {
    setText(this.state, "Restoring your answers…")
    await this.sync()
  }

  private get dirty(): boolean {
    return this.changed.size > 0
  }

  private readonly onEdit = (event: Event): void => {
    if (this.finished) return
    const field = event.composedPath().find((n): n is HTMLElement => n instanceof HTMLElement && n.dataset["slug"] !== undefined)
    if (field?.dataset["slug"] !== undefined) this.changed.add(field.dataset["slug"])
    clearTimeout(this.timer)
    this.timer = setTimeout(() => void this.sync(), pauseMs)
  }
  private readonly onHidden = (event: Event): void => {
    // pagehide may come before the document counts as hidden (a reload, a navigation): save then too.
    const leaving = event.type === "pagehide" || document.visibilityState === "hidden"
    if (leaving && this.dirty && !this.finished) {
      clearTimeout(this.timer)
      void this.sync(true)
    }
  }
  private readonly onOnline = (): void => {
    if (this.dirty && !this.finished) {
      clearTimeout(this.timer)
      this.backoff = 1000
      void this.sync()
    }
  }

  /** Creates or resumes the draft, then saves until nothing is left unsaved; one run at a time. */
  private sync(keepalive = false): Promise<void> {
    if (this.saving !== undefined) return this.saving.then(() => (this.dirty ? this.sync(keepalive) : undefined))
    this.saving = this.runSync(keepalive).finally(() => {
      this.saving = undefined
    })
    return this.saving
  }

  private async runSync(keepalive: boolean): Promise<void> {
    const view = this.view
    if (view === undefined) return
    if (this.draft === undefined || this.dirty) setText(this.state, "Saving…")
    if (this.draft === undefined) {
      const created = await createDraft(this.api, this.storageKey, keepalive, this.prefill, this.langQuery)
      this.prefill = {}
      if (created.kind === "failed") return this.saveFailed(created.answer)
      if (created.kind === "none") return
      const draft = created.draft
      this.draft = draft
      this.errors = { ...this.errors, ...created.refused }
      if (draft.status !== "draft") return this.confirm("You have already sent this form.")
      if (created.replayed) {
        // A replay: the stored values refill the form; what was typed meanwhile wins and is saved next.
        const typed = this.pending(view)
        view.fill(draft.values)
        view.fill(typed)
      }
    }
    const saved = await saveChanges(
      `${this.api}/submissions/${encodeURIComponent(this.draft.id)}${this.langQuery}`,
      this.changed,
      () => this.pending(view),
      keepalive
    )
    for (const slug of saved.sent) delete this.errors[slug]
    if (saved.kind === "failed") return this.saveFailed(saved.answer)
    this.backoff = 1000
    this.errors = { ...this.errors, ...saved.refused }
    view.showErrors(this.errors)
    if (Object.keys(this.errors).length === 0) this.notice.replaceChildren()
    setText(this.state, Object.keys(saved.refused).length === 0 ? "Saved" : "Saved, except the marked fields")
  }

  /** The values of the fields edited since their last save. */
  private pending(view: FormView): Record<string, unknown> {
    const all = view.values()
    const out: Record<string, unknown> = Object.create(null)
    for (const slug of this.changed) out[slug] = all[slug]
    return out
  }

  private retryIn(ms: number): void {
    clearTimeout(this.timer)
    this.timer = setTimeout(() => void this.sync(), ms)
  }

  private saveFailed(answer: Exclude<Answer, { kind: "ok" }>): void {
    if (answer.kind === "network" || answer.status >= 500) {
      setText(this.state, answer.kind === "network" ? "Offline — will retry" : "The service is unavailable — will retry")
      this.retryIn(this.backoff)
      this.backoff = Math.min(this.backoff * 2, maxBackoffMs)
      return
    }
    if (answer.status === 429) {
      setText(this.state, `Too many saves — will retry ${waitText(answer.retryAfter)}`)
      return this.retryIn((answer.retryAfter ?? 60) * 1000)
    }
    this.conflict(answer) || this.showFieldErrors(answer.fields, false, "Not saved: check the marked fields.")
  }

  /** 409 and a vanished draft: true when handled. */
  private conflict(answer: { readonly code: string }): boolean {
    if (answer.code === "SUBMISSION_ALREADY_SUBMITTED") {
      this.confirm("You have already sent this form.")
      return true
    }
    if (answer.code === "FORM_CLOSED") {
      this.finished = true
      setText(this.state, "")
      this.notice.replaceChildren(h("div", { class: "notice bad" }, "This form is closed: it no longer takes answers."))
      return true
    }
    if (answer.code === "SUBMISSION_NOT_FOUND") {
      // The draft was swept away (retention): start a fresh one with what is on screen.
      this.draft = undefined
      storage.set(this.storageKey, null)
      for (const control of this.view?.controls ?? []) this.changed.add(control.slug)
      this.retryIn(0)
      return true
    }
    if (answer.code === "FORM_NOT_FOUND") {
      this.finished = true
      this.message("This form does not exist, or it is no longer published.")
      return true
    }
    return false
  }

  private showFieldErrors(fields: FieldErrors, focus: boolean, summary: string): void {
    this.errors = { ...fields }
    const first = this.view?.showErrors(fields)
    setText(this.state, "")
    this.notice.replaceChildren(h("div", { class: "notice bad" }, summary))
    if (focus) first?.focusTarget().focus()
  }

  private async submit(): Promise<void> {
    const view = this.view
    if (view === undefined || this.finished) return
    const button = view.form.querySelector("button")
    button?.setAttribute("disabled", "")
    try {
      clearTimeout(this.timer)
      await this.sync()
      if (this.finished) return
      if (this.draft === undefined) {
        return this.notice.replaceChildren(h("div", { class: "notice bad" }, "Not sent yet: your answers could not be saved. Try again in a moment."))
      }
      setText(this.state, "Sending…")
      const answer = await call(`${this.api}/submissions/${encodeURIComponent(this.draft.id)}/submit${this.langQuery}`, {
        method: "POST",
        body: { values: view.values() }
      })
      if (answer.kind === "ok") return this.confirm()
      setText(this.state, "")
      if (answer.kind === "network") {
        return this.notice.replaceChildren(h("div", { class: "notice bad" }, "Not sent: no connection. Try again when you are online."))
      }
      if (answer.status === 422) {
        // A place was taken meanwhile (§15 `full`): show what remains now.
        if (Object.values(answer.fields).some((errors) => errors.some((e) => e.rule === "full"))) {
          void fetchSlots(this.api, call).then(view.refreshSlots)
        }
        return this.showFieldErrors(answer.fields, true, "Not sent yet: please correct the marked fields.")
      }
      if (this.conflict(answer)) return
      const text = answer.status === 429
        ? `Too many submissions from your network. Try again ${waitText(answer.retryAfter)}.`
        : "The service is unavailable right now. Your answers are kept: please try again in a moment."
      this.notice.replaceChildren(h("div", { class: "notice bad" }, text))
    } finally {
      button?.removeAttribute("disabled")
    }
  }

  private confirm(extra?: string): void {
    this.finished = true
    clearTimeout(this.timer)
    const title = this.root.querySelector("h1")
    const another = h("button", { type: "button", class: "another" }, "Fill in another response")
    another.addEventListener("click", () => void this.startAnother())
    const done = h(
      "div",
      { class: "notice done", role: "status", tabindex: "-1" },
      "Thank you! Your answers have been received.",
      extra === undefined ? null : ` ${extra}`
    )
    this.show(...(title === null ? [] : [title]), done, another)
    done.focus()
  }

  /**
   * A fresh form under a new idempotency key (the next create stores one): a registration desk signs up the next
   * person in the same browser. The sent submission stays as it is; a reload now shows the new draft.
   */
  private async startAnother(): Promise<void> {
    storage.set(this.storageKey, null)
    this.changed.clear()
    this.errors = {}
    this.backoff = 1000
    this.notice.replaceChildren()
    setText(this.state, "")
    await this.load()
    this.view?.controls[0]?.focusTarget().focus()
  }
}
