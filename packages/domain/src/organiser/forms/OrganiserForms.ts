/**
 * Port: an organisation's forms (CONTRACT §12). Scoped by organisation (a form of another one is an
 * unknown one); every write is one atomic step with its audit entry (ids only), and a write under an
 * expected revision compares and moves it in that step, so of two writers of one revision one wins.
 */
import { Context, type Effect, type Option, Schema } from "effect"
import type { FormNotFound } from "../../forms/errors.js"
import type { Actor } from "../../shared/Actor.js"
import type { Unavailable } from "../../shared/errors.js"
import type { CreatedKey, Page, PageRequest } from "../../shared/paging.js"
import type { InUse, ReferenceInvalid } from "../catalog/errors.js"
import type { RevisionConflict } from "./errors.js"
import {
  type AdminForm,
  type AdminFormSummary,
  type ExpectedRevision,
  FormDefinition,
  type FormPatch
} from "./FormModel.js"

type E<A, X = never> = Effect.Effect<A, X | Unavailable>

export const NewForm = Schema.Struct({
  definition: FormDefinition,
  /** Null for an `artist_advance` form. */
  public_token: Schema.NullOr(Schema.String)
})
export type NewForm = typeof NewForm.Type

export class OrganiserForms extends Context.Service<OrganiserForms, {
  /** Newest first (`created_at`, then `id`). */
  readonly listForms: (organisationId: string, page: PageRequest<CreatedKey>) => E<Page<AdminFormSummary>>
  readonly findForm: (organisationId: string, id: string) => E<Option.Option<AdminForm>>
  /** The organisation's `artist_advance` form, if it has one (at most one may exist). */
  readonly advanceFormOf: (organisationId: string) => E<Option.Option<string>>
  /**
   * Revision 1. ReferenceInvalid("event_id") when the event is not the organisation's;
   * ReferenceInvalid("type") when the organisation has an `artist_advance` form already.
   */
  readonly createForm: (actor: Actor, form: NewForm, at: number) => E<AdminForm, ReferenceInvalid>
  /** Replaces the definition (parts matched by id), revision + 1; RevisionConflict unless `expected` holds. */
  readonly replaceForm: (
    actor: Actor,
    id: string,
    definition: FormDefinition,
    expected: ExpectedRevision,
    at: number
  ) => E<AdminForm, FormNotFound | RevisionConflict | ReferenceInvalid>
  /** Changes the members given, revision + 1; RevisionConflict unless `expected` holds. */
  readonly patchForm: (
    actor: Actor,
    id: string,
    patch: FormPatch,
    expected: ExpectedRevision,
    at: number
  ) => E<AdminForm, FormNotFound | RevisionConflict>
  /** InUse while the form has submissions. */
  readonly deleteForm: (actor: Actor, id: string, at: number) => E<void, FormNotFound | InUse>
  /**
   * The current token becomes the previous one (valid for the grace window from `at`), `token` the current
   * one; the revision does not move. Unscoped when `actor` is undefined (the CLI): the entry has no key.
   */
  readonly rotateFormToken: (actor: Actor | undefined, id: string, token: string, at: number) => E<AdminForm, FormNotFound>
  /** A fresh id for a part sent without one. */
  readonly newId: () => string
}>()("@forms/domain/OrganiserForms") {}
