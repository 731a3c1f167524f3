/**
 * The retention sweep of CONTRACT §12 in the background: 30 seconds after start, then every hour. Every
 * process runs it; the port's lock lets one sweep at a time (the others find it held and skip that round).
 */
import { Duration, Effect, Layer, Schedule } from "effect"
import { sweepRetention } from "@forms/domain"
import type { ServerConfig } from "./config.js"

export const retentionFirstDelay = Duration.seconds(30)
export const retentionInterval = Duration.hours(1)

const sweepOnce = (config: ServerConfig) =>
  sweepRetention({ draftRetentionDays: config.draftRetentionDays, outboxRetentionDays: config.outboxRetentionDays }).pipe(
    Effect.tap((result) =>
      result.ran && (result.drafts_deleted > 0 || result.payloads_emptied > 0 || result.uploads_removed > 0)
        ? Effect.logInfo("retention sweep").pipe(
          Effect.annotateLogs({
            drafts_deleted: result.drafts_deleted,
            payloads_emptied: result.payloads_emptied,
            uploads_removed: result.uploads_removed
          })
        )
        : Effect.void
    ),
    // A failed round (the database away) is logged and tried again at the next one.
    Effect.catchCause((cause) => Effect.logWarning("retention sweep failed", cause))
  )

/** `RetentionSweeper.layer(config)`: needs the Retention port; the fiber stops with the layer. */
export const RetentionSweeper = {
  layer: (config: ServerConfig) =>
    Layer.effectDiscard(
      Effect.sleep(retentionFirstDelay).pipe(
        Effect.andThen(Effect.repeat(sweepOnce(config), Schedule.spaced(retentionInterval))),
        Effect.forkScoped
      )
    )
} as const
