/** Port: form schemas, looked up by a public token (current or previous; the grace rule is the domain's). */
import { Context, type Effect, type Option } from "effect"
import type { FormSchema } from "../forms/FormSchema.js"
import type { Unavailable } from "../shared/errors.js"

export class FormSchemas extends Context.Service<FormSchemas, {
  /** The schema whose `public_token` or `previous_public_token` equals `token`, whatever its status or type. */
  readonly findByToken: (token: string) => Effect.Effect<Option.Option<FormSchema>, Unavailable>
  /**
   * The schema with this id as stored now, never from a cache: what a write re-validates against after it
   * found the revision moved (RevisionChanged).
   */
  readonly findCurrent: (schemaId: string) => Effect.Effect<Option.Option<FormSchema>, Unavailable>
}>()("@forms/domain/FormSchemas") {}
