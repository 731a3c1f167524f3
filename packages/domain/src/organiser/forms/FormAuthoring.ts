/**
 * The form-authoring use cases (CONTRACT §12) after authentication, the request shape and the `admin`
 * limit: ids in the path (404) → preconditions (428, 412) → body (422) → conflicts (409).
 */
import { Context, type Effect } from "effect"
import type { FormNotFound } from "../../forms/errors.js"
import type { Body } from "../../rules/bodyChecks.js"
import type { ValidationFailed } from "../../rules/errors.js"
import type { Actor } from "../../shared/Actor.js"
import type { Unavailable } from "../../shared/errors.js"
import type { CreatedKey, Page, PageRequest } from "../../shared/paging.js"
import type { InUse } from "../catalog/errors.js"
import type { PreconditionRequired, RevisionConflict } from "./errors.js"
import type { AdminForm, AdminFormSummary } from "./FormModel.js"

type E<A, X = never> = Effect.Effect<A, X | Unavailable>

export class FormAuthoring extends Context.Service<FormAuthoring, {
  readonly listForms: (actor: Actor, page: PageRequest<CreatedKey>) => E<Page<AdminFormSummary>>
  readonly getForm: (actor: Actor, id: string) => E<AdminForm, FormNotFound>
  /** `token`: the new form's public token (from the caller: the domain has no randomness); unused for `artist_advance`. */
  readonly createForm: (actor: Actor, body: Body, token: string) => E<AdminForm, ValidationFailed>
  /** `ifMatch`: the header as sent; absent → PreconditionRequired. */
  readonly replaceForm: (
    actor: Actor,
    id: string,
    body: Body,
    ifMatch: string | undefined
  ) => E<AdminForm, FormNotFound | PreconditionRequired | RevisionConflict | ValidationFailed>
  /** `ifMatch` optional: when sent, the same rules as for a PUT. */
  readonly patchForm: (
    actor: Actor,
    id: string,
    body: Body,
    ifMatch: string | undefined
  ) => E<AdminForm, FormNotFound | RevisionConflict | ValidationFailed>
  readonly deleteForm: (actor: Actor, id: string) => E<void, FormNotFound | InUse>
  /**
   * A new public token; the old one keeps working for the grace window. The one path of the HTTP route
   * and the CLI's `rotate-token` (actor undefined: unscoped).
   */
  readonly rotateToken: (actor: Actor | undefined, id: string, token: string) => E<AdminForm, FormNotFound>
}>()("@forms/domain/FormAuthoring") {}
