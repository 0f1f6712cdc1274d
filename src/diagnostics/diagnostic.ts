/**
 * A problem recorded as data (unified-engine style). Stages return diagnostics; only the CLI
 * decides how to print them and which exit code they imply.
 */
export type DiagnosticSeverity = 'error' | 'warning' | 'info';

export interface Diagnostic {
  code: string; // "AUR1003"
  severity: DiagnosticSeverity;
  message: string;
  /** Path relative to the world repository root, e.g. "world/characters.json". */
  file?: string;
  /** RFC 6901 JSON pointer into the file, e.g. "/characters/3/faction". */
  pointer?: string;
  /** 1-based line and column, for syntax errors and expressions. */
  line?: number;
  column?: number;
  hint?: string;
  /**
   * Only on AUR7009, the line standing for the diagnostics of a file beyond the first
   * MAX_DIAGNOSTICS_PER_FILE (cap.ts): how many were left out, by severity.
   */
  omitted?: Partial<Record<DiagnosticSeverity, number>>;
}
