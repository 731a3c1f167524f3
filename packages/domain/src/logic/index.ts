/**
 * `@forms/domain/logic`: the conditions of CONTRACT §18 alone, pure and free of dependencies (no Effect), so the
 * browser's element bundles the very evaluation the server's rules use.
 */
export { checkCondition, conditionLimits, type ConditionCheck } from "./checkCondition.js"
export { compileCondition, type ConditionData, conditionOperators, type Evaluate, truthy } from "./condition.js"
export {
  checkFormLogic,
  compileFormLogic,
  type FormLogic,
  hasConditions,
  type LogicField,
  type LogicProblem,
  type LogicSection
} from "./formLogic.js"
export { type ReadKind, readKindOf, readValue } from "./readValue.js"
