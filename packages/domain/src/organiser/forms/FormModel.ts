/** Forms as the organiser authors them (CONTRACT §12): the definition, the form as answered, its list item. */
import type { FormField } from "../../forms/FormField.js"
import type { FormSection, FormStatus } from "../../forms/FormSchema.js"
import type { CreatedKey } from "../../shared/paging.js"

/** A checked definition: every default filled in, every part with its id (generated when omitted). */
export interface FormDefinition {
  readonly name: string
  readonly type: string
  readonly event_id: string | null
  readonly status: FormStatus
  /** Epoch ms, or null. */
  readonly opens_at: number | null
  readonly closes_at: number | null
  readonly tags: ReadonlyArray<string>
  readonly sections: ReadonlyArray<FormSection>
  readonly fields: ReadonlyArray<FormField>
}

/** A form as answered: its definition and the read-only members. */
export interface AdminForm extends FormDefinition {
  readonly id: string
  readonly organisation_id: string
  readonly revision: number
  readonly public_token: string | null
  readonly previous_public_token: string | null
  readonly token_rotated_at: number | null
  readonly created_at: number
  readonly updated_at: number
}

/** A list item: the form without its parts, with its submissions counted by status. */
export interface AdminFormSummary {
  readonly id: string
  readonly name: string
  readonly type: string
  readonly status: FormStatus
  readonly event_id: string | null
  readonly revision: number
  readonly opens_at: number | null
  readonly closes_at: number | null
  readonly counts: { readonly drafts: number; readonly submitted: number }
  readonly created_at: number
}

/** The members a PATCH may change: absent means unchanged. */
export interface FormPatch {
  readonly name?: string
  readonly status?: FormStatus
  readonly opens_at?: number | null
  readonly closes_at?: number | null
  readonly tags?: ReadonlyArray<string>
}

/** What a write expects of the stored revision: any (`If-Match: *` or a PATCH without it) or this one. */
export type ExpectedRevision = number | "any"

export const formKeyOf = (form: { readonly created_at: number; readonly id: string }): CreatedKey => ({
  created_at: form.created_at,
  id: form.id
})
