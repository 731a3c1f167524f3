/** A form schema as the use cases see it: its event, sections, fields, status and tokens. */
import type { FormField } from "./FormField.js"

export type FormStatus = "draft" | "published" | "archived"

export interface EventRef {
  readonly id: string
  readonly name: string
}

export interface FormSection {
  readonly id: string
  readonly name: string
  readonly position: number
}

export interface FormSchema {
  readonly id: string
  readonly organisation_id: string
  /** 1 for a new form, +1 per change of its definition (CONTRACT §12); not moved by a token rotation. */
  readonly revision: number
  readonly event: EventRef | null
  readonly name: string
  readonly type: string
  readonly status: FormStatus
  readonly public_token: string | null
  readonly previous_public_token: string | null
  /** Epoch milliseconds of the last rotation, or null. */
  readonly token_rotated_at: number | null
  /** Epoch milliseconds, or null. */
  readonly opens_at: number | null
  readonly closes_at: number | null
  readonly tags: ReadonlyArray<string>
  readonly sections: ReadonlyArray<FormSection>
  /** Every field of the schema, in or out of a section. */
  readonly fields: ReadonlyArray<FormField>
}
