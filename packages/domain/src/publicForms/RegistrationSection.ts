/** A registration section as a public form lists it (CONTRACT §2, §3). */

export interface RegistrationSection {
  readonly id: string
  readonly name: string
  readonly type: string
  readonly position: number
}
