/** English messages of the rules that take no parameter (type and bound messages sit with their rules). */
import type { FieldError } from "./FieldErrors.js"

export const requiredMessage = "This field is required."
export const invalidMessage = "Must be a single text, number or true/false value."
export const invalidWithOptionsMessage = "Must be a single value or a list of text or number values."
export const inMessage = "Must be one of the allowed options."
export const regexMessage = "Must match the required format."

/** A one-error list, frozen so it can be shared by every result that reports it. */
export const errorList = (error: FieldError): ReadonlyArray<FieldError> => Object.freeze([Object.freeze(error)])
