import { NodeRuntime } from "@effect/platform-node"
import { Effect, Layer, References } from "effect"
import { FormsConfig, PublicFormsLive } from "@forms/domain"
import { InMemory } from "@forms/domain/memory"
import { baseUrl, serverLayer } from "../test/harness.js"

const publicForms = PublicFormsLive.layer.pipe(Layer.provide(FormsConfig.layer({})), Layer.provide(InMemory.layer()))
const main = Effect.gen(function*() {
  console.log(`listening ${yield* baseUrl} pid ${process.pid}`)
  yield* Effect.never
}).pipe(Effect.provide(serverLayer(publicForms, { config: { trustProxyHops: 1 } })),
  Effect.provideService(References.TracerEnabled, false), Effect.provideService(References.TracerTimingEnabled, false))
NodeRuntime.runMain(main as Effect.Effect<void>)
