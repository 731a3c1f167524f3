/**
 * A real SMTP server on the loopback for the tests (`smtp-server`): each mail parsed with `mailparser`, answers
 * scripted per DATA (a code; 250 once used up), or never answered (`hang`). STARTTLS offered with a self-signed
 * certificate made for the test (`openssl`).
 */
import { execFileSync } from "node:child_process"
import { mkdtempSync, readFileSync } from "node:fs"
import type { AddressInfo } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { type ParsedMail, simpleParser } from "mailparser"
import { SMTPServer } from "smtp-server"

export interface Received {
  readonly mail: ParsedMail
  /** Whether the session was upgraded with STARTTLS (or began in TLS). */
  readonly secure: boolean
  readonly envelopeTo: ReadonlyArray<string>
}

export interface SmtpReceiver {
  readonly port: number
  readonly cert: string
  readonly received: Array<Received>
  /** Answers of the next DATA commands, in order (250 once used up). */
  readonly script: Array<number | "hang">
  /** DATA commands seen, whatever their answer. */
  attempts: number
  /** The Message-ID of every mail that reached DATA, whatever its answer. */
  readonly messageIds: Array<string>
  readonly close: () => Promise<void>
}

export const selfSignedCertificate = (): { readonly key: string; readonly cert: string } => {
  const dir = mkdtempSync(join(tmpdir(), "forms-smtp-"))
  execFileSync("openssl", [
    "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=localhost",
    "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1",
    "-keyout", join(dir, "key.pem"), "-out", join(dir, "cert.pem")
  ], { stdio: "ignore" })
  return { key: readFileSync(join(dir, "key.pem"), "utf8"), cert: readFileSync(join(dir, "cert.pem"), "utf8") }
}

export const startSmtpReceiver = async (options: { readonly secure?: boolean } = {}): Promise<SmtpReceiver> => {
  const { key, cert } = selfSignedCertificate()
  const state = { attempts: 0 }
  const received: Array<Received> = []
  const script: Array<number | "hang"> = []
  const messageIds: Array<string> = []
  const server = new SMTPServer({
    secure: options.secure === true,
    key,
    cert,
    authOptional: true,
    disabledCommands: ["AUTH"],
    logger: false,
    onData(stream, session, callback) {
      state.attempts++
      const answer = script.shift() ?? 250
      simpleParser(stream).then((mail) => {
        messageIds.push(mail.messageId ?? "")
        if (answer === "hang") return
        if (answer === 250) {
          received.push({ mail, secure: session.secure, envelopeTo: session.envelope.rcptTo.map((r) => r.address) })
          callback()
          return
        }
        callback(Object.assign(new Error(`refused with ${answer}`), { responseCode: answer }))
      }, (error: unknown) => callback(error as Error))
    }
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()))
  const port = (server.server.address() as AddressInfo).port
  return {
    port,
    cert,
    received,
    script,
    messageIds,
    get attempts() {
      return state.attempts
    },
    set attempts(n: number) {
      state.attempts = n
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve()))
  }
}
