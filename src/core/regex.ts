/** `s` as a regular expression that matches exactly it (every metacharacter escaped). */
export function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
