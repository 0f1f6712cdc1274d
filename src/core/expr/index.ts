export { parseExpression, type Ast, type ParseResult, MAX_DEPTH, MAX_EXPRESSION_LENGTH } from './parse.js';
export { evaluate, evaluateAst, evaluateCondition, type EvalResult } from './evaluate.js';
export { makeEvalContext, type EvalContext } from './context.js';
export { checkPrereqs, operatorRoleKinds, prereqsHold, type PrereqResult } from './prereqs.js';
export { FUNCTIONS, type FunctionSpec } from './functions.js';
export { STRUCT_FIELDS, structFields, isView, viewMeta, type ExprType, type StructName, type Value, type View } from './views.js';
export { typecheckWorldExpressions, typecheckExpression } from './check.js';
