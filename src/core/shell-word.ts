/**
 * A word of a command the user is told to run (a path in a hint's `git` command, a `--set` value),
 * quoted for a POSIX shell only when it needs it: plain words stay readable, anything else is put in
 * single quotes (a quote inside as '\''), so a path with a space, `$` or `;` is one argument and runs nothing.
 */
export const shellWord = (s: string): string => (/^[A-Za-z0-9_.,:=/@%+-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);

/**
 * At most `few` paths as shell words, then how many more there are, outside the command's quotes
 * (the reader runs what is quoted and finds the rest with `git status`): "a b …and 3 more".
 */
export function someShellWords(paths: readonly string[], few = 4): { words: string; more: number } {
  return { words: paths.slice(0, few).map(shellWord).join(' '), more: Math.max(0, paths.length - few) };
}
