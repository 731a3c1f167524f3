/** Port: where upload contents live, under generated keys (the upload's id). Never served publicly. */
import { Context, type Effect, type Option, type Stream } from "effect"
import type { Unavailable } from "../shared/errors.js"

export class FileStorage extends Context.Service<FileStorage, {
  /**
   * Streams `body` under `key` with back-pressure; the content appears under `key` only once whole (a failed
   * or interrupted put leaves nothing there). The body's own failure is passed on.
   */
  readonly put: <E>(key: string, body: Stream.Stream<Uint8Array, E>) => Effect.Effect<void, E | Unavailable>
  /** The content under `key`, streamed; none when there is none. */
  readonly get: (key: string) => Effect.Effect<Option.Option<Stream.Stream<Uint8Array, Unavailable>>, Unavailable>
  /** Removes the content under `key`; removing what is not there succeeds. */
  readonly remove: (key: string) => Effect.Effect<void, Unavailable>
  /** Every key with content (for sweeps and tests that look for leftovers). */
  readonly keys: Effect.Effect<ReadonlyArray<string>, Unavailable>
}>()("@forms/domain/FileStorage") {}
