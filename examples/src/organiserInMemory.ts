// The organiser program in memory: no database, no test framework.
import { OrganiserLive } from "@forms/domain"
import { InMemoryOrganiser } from "@forms/domain/memory"
import { Effect, Layer } from "effect"
import { organiserProgram } from "./organiser.js"

// OrganiserLive.layer: the use cases; InMemoryOrganiser.layer: their three ports, also given to the program.
const InMemoryOrganiserUseCases = OrganiserLive.layer.pipe(Layer.provideMerge(InMemoryOrganiser.layer))

console.log(JSON.stringify(await Effect.runPromise(organiserProgram.pipe(Effect.provide(InMemoryOrganiserUseCases)))))
