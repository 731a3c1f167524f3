/**
 * PGlite's wire-protocol handler as an in-process `Duplex`, what `@effect/sql-pg`'s `stream` option connects
 * to: the embedded database is reached through no socket at all (CONTRACT §16).
 */
import type { PGlite } from "@electric-sql/pglite"
import { Duplex } from "node:stream"

const SSL_REQUEST = 80877103
const GSSENC_REQUEST = 80877104
const CANCEL_REQUEST = 80877102
const TERMINATE = 0x58 // 'X'
// PostgreSQL refuses a startup packet over 10,000 bytes and any message over 1 GiB.
const MAX_STARTUP_LENGTH = 10_000
const MAX_MESSAGE_LENGTH = 0x40000000

const frame = (type: string, body: Buffer): Buffer => {
  const out = Buffer.alloc(5 + body.length)
  out.write(type, 0, "latin1")
  out.writeInt32BE(4 + body.length, 1)
  body.copy(out, 5)
  return out
}

const simpleQuery = (text: string): Buffer => frame("Q", Buffer.from(`${text}\0`))
const SYNC = frame("S", Buffer.alloc(0))

/** A FATAL ErrorResponse, as a server sends before it closes a connection it cannot serve. */
const fatal = (code: string, message: string): Buffer =>
  frame("E", Buffer.from(`SFATAL\0VFATAL\0C${code}\0M${message}\0\0`))

/**
 * One PGlite session, shared by the streams opened on it one after another (the pool holds one). Every
 * exchange runs in the order it was queued, so a connection that replaces a closed one starts after the
 * closed one's session was reset.
 */
export class PgliteSession {
  private tail: Promise<void> = Promise.resolve()

  constructor(readonly db: PGlite) {}

  /** A new connection to the session (the `stream` option of `PgClient.make`). */
  readonly open = (): Duplex => new PgliteStream(this)

  /** Runs `task` after every task queued before it; a failed task does not stop the queue. */
  enqueue(task: () => Promise<void>): Promise<void> {
    const run = this.tail.then(task)
    this.tail = run.catch(() => undefined)
    return run
  }

  /** Resolves once every task queued so far has run (before PGlite is closed). */
  idle(): Promise<void> {
    return this.tail
  }

  /** Hands protocol messages to PGlite, exclusive of any other use of it; answers go to `onData`. */
  exec(bytes: Uint8Array, onData: (data: Uint8Array) => void = () => undefined): Promise<void> {
    return this.db.runExclusive(() => this.db.execProtocolRawStream(bytes, { onRawData: onData }))
  }

  /**
   * What a server does when a connection ends: an exchange cut off before its Sync is finished, an open
   * transaction rolled back, and whatever else the connection left in the session (prepared statements,
   * settings such as `search_path`, advisory locks, temporary tables) discarded, so the next connection
   * starts as a fresh session.
   */
  async reset(): Promise<void> {
    if (this.db.closed) return
    await this.exec(SYNC)
    if (this.db.isInTransaction()) await this.exec(simpleQuery("ROLLBACK"))
    await this.exec(simpleQuery("DISCARD ALL"))
  }
}

/**
 * One connection. Bytes written by the client are cut into protocol messages (they may arrive split or
 * batched); the startup phase is answered as a server answers it (SSL and GSS encryption refused with `N`,
 * a cancel request closes the connection: PGlite runs a statement on this thread, nothing can interrupt
 * it), and complete messages are handed to PGlite in the order they came, its answers pushed back.
 */
class PgliteStream extends Duplex {
  private pending: Buffer = Buffer.alloc(0)
  private started = false
  private ending = false
  private aborted = false
  private released = false

  constructor(private readonly session: PgliteSession) {
    // Like a socket the server closes: when the readable side ends, the writable side ends too.
    super({ allowHalfOpen: false })
  }

  override _read(): void {
    // Answers are pushed as PGlite produces them.
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    if (!this.ending && !this.aborted) {
      this.pending = this.pending.length === 0 ? chunk : Buffer.concat([this.pending, chunk])
      this.takeMessages()
    }
    callback()
  }

  override _final(callback: (error?: Error | null) => void): void {
    this.end_()
    callback()
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    // Cut off: what the connection queued and PGlite has not run yet is dropped, the session reset.
    this.aborted = true
    this.release()
    callback(error)
  }

  private takeMessages(): void {
    const messages: Array<Buffer> = []
    let terminate = false
    while (!terminate) {
      const buffer = this.pending
      if (!this.started) {
        if (buffer.length < 8) break
        const length = buffer.readInt32BE(0)
        if (length < 8 || length > MAX_STARTUP_LENGTH) return this.refuse(fatal("08P01", "invalid length of startup packet"))
        if (buffer.length < length) break
        const code = buffer.readInt32BE(4)
        const message = buffer.subarray(0, length)
        this.pending = buffer.subarray(length)
        if (length === 8 && (code === SSL_REQUEST || code === GSSENC_REQUEST)) {
          this.push(Buffer.from("N"))
        } else if (length === 16 && code === CANCEL_REQUEST) {
          return void this.destroy()
        } else if (code >>> 16 === 3) {
          this.started = true
          messages.push(message)
        } else {
          return this.refuse(fatal("0A000", "unsupported frontend protocol"))
        }
        continue
      }
      if (buffer.length < 5) break
      const length = buffer.readInt32BE(1)
      if (length < 4 || length > MAX_MESSAGE_LENGTH) return this.refuse(fatal("08P01", "invalid message length"))
      if (buffer.length < 1 + length) break
      const message = buffer.subarray(0, 1 + length)
      this.pending = buffer.subarray(1 + length)
      // Terminate ends the connection; PGlite's one session lives on.
      if (message[0] === TERMINATE) terminate = true
      else messages.push(message)
    }
    if (messages.length > 0) this.send(Buffer.concat(messages))
    if (terminate) this.end_()
  }

  private send(bytes: Buffer): void {
    this.session.enqueue(async () => {
      if (this.aborted) return
      await this.session.exec(bytes, (data) => {
        // A copy: the bytes are a view of PGlite's memory, reused by its next answer.
        if (!this.aborted) this.push(Buffer.from(data))
      })
    }).catch((error: unknown) => this.destroy(error instanceof Error ? error : new Error(String(error))))
  }

  /** An orderly end (Terminate, or the client ended its side): the queued messages run, then the reset. */
  private end_(): void {
    if (this.ending) return
    this.ending = true
    this.release()
    this.session.enqueue(async () => {
      if (!this.aborted) this.push(null)
    }).catch(() => undefined)
  }

  /** A message no server accepts: the error, then the connection closes. */
  private refuse(error: Buffer): void {
    this.ending = true
    this.pending = Buffer.alloc(0)
    this.release()
    this.push(error)
    this.push(null)
  }

  private release(): void {
    if (this.released) return
    this.released = true
    // A reset that fails leaves nothing to clean: PGlite was closed or is broken (and then answers no one).
    if (this.started) this.session.enqueue(() => this.session.reset()).catch(() => undefined)
  }
}
