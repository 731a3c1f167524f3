/** An in-memory `Mailer`: outcomes come from a script (once used up, `Sent`), every mail attempted is recorded. */
import { Effect, Layer } from "effect"
import { Mailer, type MailOutcome, type OutgoingMail } from "../../messages/Mailer.js"

export interface InMemoryMailerState {
  /** Outcomes in order; once used up, every mail is sent. */
  readonly script: Array<MailOutcome>
  /** Every mail attempted, in order, whatever its outcome. */
  readonly attempted: Array<OutgoingMail>
}

export const makeMailerState = (): InMemoryMailerState => ({ script: [], attempted: [] })

export const InMemoryMailer = {
  layer: (state: InMemoryMailerState) =>
    Layer.succeed(Mailer, Mailer.of({
      send: (mail) =>
        Effect.sync(() => {
          state.attempted.push(mail)
          return state.script.shift() ?? { _tag: "Sent" }
        })
    }))
} as const
