import type { Diagnostic } from '../diagnostics/index.js';
import { loadConfig } from '../config/load.js';
import { typecheckWorldExpressions } from '../core/expr/check.js';
import { loadStyle } from '../style/guide.js';
import { loadWorld } from './load.js';

/**
 * What `aureus validate` checks, as a function (the command only prints): world files,
 * season goals and references (store), the expressions of operators and constraints (core/expr,
 * once every file is schema-valid: they need well-typed data), the style guide and lexicon
 * (style), then aureus.config.yaml (config).
 */
export interface ValidationResult {
  valid: boolean;
  diagnostics: Diagnostic[];
  /** One line about what was checked, e.g. "10 characters, 32 operators, 8 threads". */
  stats: string;
}

export async function validateWorldRepository(root: string): Promise<ValidationResult> {
  const loaded = await loadWorld(root);
  const diagnostics = [...loaded.diagnostics];
  if (loaded.parsed) diagnostics.push(...typecheckWorldExpressions(loaded.parsed));
  // Not a world repository at all (AUR1000): one diagnostic says so; the style files would only repeat it.
  if (!diagnostics.some((d) => d.code === 'AUR1000')) diagnostics.push(...(await loadStyle(root)).diagnostics);
  diagnostics.push(...loadConfig(root).diagnostics);

  const w = loaded.world;
  const stats = w
    ? [
        `${w.characters.characters.length} characters`,
        `${w.relationships.relationships.length} relationships`,
        `${w.secrets.secrets.length} secrets`,
        `${w.threads.threads.length} threads`,
        `${w.world.locations.length} locations`,
        `${w.operators.operators.length} operators`,
        `${loaded.seasonGoals.length} season${loaded.seasonGoals.length === 1 ? '' : 's'}`,
      ].join(', ')
    : '';
  return { valid: !diagnostics.some((d) => d.severity === 'error'), diagnostics, stats };
}
