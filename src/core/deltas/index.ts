export { applyDeltas, type ApplyResult } from './apply.js';
export { resolveEffects, type ResolveResult } from './resolve.js';
export { parsePath, expandRolePath, checkOp, OPS_BY_TARGET, DATE_FIELDS, type DateField, type PathTarget, type TargetKind } from './paths.js';
