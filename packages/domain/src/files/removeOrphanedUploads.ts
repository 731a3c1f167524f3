/**
 * Deletes orphaned uploads, content first then row, so no content outlives its row for long: uploads of erased or
 * swept submissions, those dropped at a submit, `pending` rows older than an hour (an upload that died half-way)
 * and stored uploads their submission's values have not referenced for 24 hours. A delete that fails leaves the
 * row listed, so the next run (after an erasure, a submit, or the retention sweep) tries it again.
 */
import { Clock, Effect } from "effect"
import { FileStorage } from "./FileStorage.js"
import { FileUploads } from "./FileUploads.js"

/** A pending upload older than this died half-way. */
export const pendingLifetimeMs = 3_600_000
/** A stored upload no value has referenced for this long is dropped. */
export const unreferencedLifetimeMs = 86_400_000
/** Orphans removed per run. */
const orphanBatch = 500

/** The number of orphans removed, content and row. */
export const removeOrphanedUploads = Effect.gen(function*() {
  const uploads = yield* FileUploads
  const storage = yield* FileStorage
  const now = yield* Clock.currentTimeMillis
  const ids = yield* uploads.orphans(
    { pendingBefore: now - pendingLifetimeMs, unreferencedBefore: now - unreferencedLifetimeMs },
    orphanBatch
  )
  let removed = 0
  for (const id of ids) {
    const gone = yield* storage.remove(id).pipe(Effect.andThen(uploads.remove(id)), Effect.as(true), Effect.orElseSucceed(() => false))
    if (gone) removed++
  }
  return removed
}).pipe(Effect.withSpan("Files.removeOrphanedUploads"))
