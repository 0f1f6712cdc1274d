import { AureusError, ExitCode } from '../../errors.js';
import { diag } from '../../diagnostics/catalog.js';
import '../../diagnostics/codes/planning.js';

/** The one way planning fails: exit 6 with a diagnostic naming the rule that could not be met. */
export function infeasible(rule: string, detail: string, code = 'AUR3001'): AureusError {
  const d = code === 'AUR3001' ? diag(code, { rule, detail }) : diag(code, { detail });
  return new AureusError(`no feasible plan: ${rule}`, { exitCode: ExitCode.PLAN_INFEASIBLE, diagnostics: [d] });
}
