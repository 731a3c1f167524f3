/**
 * The written forms of a `numeric` and a `boolean` value (CONTRACT §4), on trimmed strings: one definition for the
 * type rules (`rules/types.ts`) and for what a condition reads (`logic/readValue.ts`). Pure and free of
 * dependencies, so the browser's element bundles it too.
 */

export const numericPattern = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/

/** A trimmed string in the contract's numeric form. */
export const isNumericString = (s: string): boolean => numericPattern.test(s)

/** A trimmed string among the boolean rule's string forms. */
export const isBooleanString = (s: string): boolean => s === "true" || s === "false" || s === "1" || s === "0"
