/**
 * Directives and slash commands into one action (seed 001). A model embeds
 * `[DIRECTIVE:action|key:value|…]` in its answer; the user types `/action args`. Both become a
 * PlayAction, applied by the same code (commands.ts), so each command does exactly what its
 * directive does. Directives are always stripped from what the user sees, well-formed or not.
 */
export const ACTIONS = ['note', 'character', 'thread', 'beat', 'scene', 'commit', 'end', 'status', 'help', 'undo'] as const;
export type ActionName = (typeof ACTIONS)[number];

export interface PlayAction {
  name: ActionName;
  /** Free text (a command's argument, or a directive's main value). */
  text: string;
  params: Record<string, string>;
  source: 'command' | 'directive';
}

export type Parsed = { ok: true; action: PlayAction } | { ok: false; error: string };

const DIRECTIVE = /\[DIRECTIVE:([^\]]*)\]/gi;
/** An opened directive the model never closed: stripped to the end of the line. */
const OPEN_DIRECTIVE = /\[DIRECTIVE:[^\]\n]*$/gim;
/** Which directive key carries an action's main text (seed 001: note → idea, character → name …). */
const MAIN_KEY: Partial<Record<ActionName, string>> = { note: 'idea', character: 'name', thread: 'question', beat: 'beat', scene: 'scene' };

function isAction(s: string): s is ActionName {
  return (ACTIONS as readonly string[]).includes(s);
}

export function parseDirective(body: string): Parsed {
  const [head, ...rest] = body.split('|');
  const name = (head ?? '').trim().toLowerCase();
  if (!isAction(name)) return { ok: false, error: `unknown directive "${name || '(empty)'}"` };
  const params: Record<string, string> = {};
  for (const part of rest) {
    const i = part.indexOf(':');
    if (i <= 0) return { ok: false, error: `malformed directive parameter "${part.trim()}" (expected key:value)` };
    params[part.slice(0, i).trim().toLowerCase()] = part.slice(i + 1).trim();
  }
  const key = MAIN_KEY[name];
  return { ok: true, action: { name, text: key ? (params[key] ?? '') : '', params, source: 'directive' } };
}

/** Strip every directive from model text; return the clean text and the parsed directives. */
export function extractDirectives(text: string): { clean: string; parsed: Parsed[] } {
  const parsed: Parsed[] = [];
  let clean = text.replace(DIRECTIVE, (_m, body: string) => {
    parsed.push(parseDirective(body));
    return '';
  });
  clean = clean.replace(OPEN_DIRECTIVE, () => {
    parsed.push({ ok: false, error: 'unterminated directive' });
    return '';
  });
  return { clean: clean.replace(/[ \t]{2,}/g, ' ').replace(/\s+([.,;!?])/g, '$1').trim(), parsed };
}

/** A user line starting with "/" is a command; anything else is an in-character turn. */
export function parseCommand(line: string): Parsed | null {
  if (!line.startsWith('/')) return null;
  const m = /^\/(\S*)\s*([\s\S]*)$/.exec(line)!;
  const name = m[1]!.toLowerCase();
  if (!isAction(name)) return { ok: false, error: `unknown command /${name} (type /help for the list)` };
  return { ok: true, action: { name, text: m[2]!.trim(), params: {}, source: 'command' } };
}

export const HELP = [
  '/note <idea>          save a note to the season notes',
  '/character <id>       bring a character on stage (must be alive and in the world)',
  '/thread <question>    propose a new thread for the next episode',
  '/beat <beat>          mark a beat reached (establishment … resolution)',
  '/scene                show where you are and who is present',
  '/commit               canonize the staged proposals now',
  '/end                  end the scene (evaluation, canonization)',
  '/status               turn count, beat, tension, staged proposals',
  '/undo                 take back your last turn',
  '/help                 this list',
].join('\n');
