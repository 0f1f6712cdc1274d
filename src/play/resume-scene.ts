import type { World } from '../domain/world.js';
import { AureusError, ExitCode } from '../errors.js';
import { diag, type Diagnostic } from '../diagnostics/index.js';
import { findScenePacket, isPlanned, requireLiving } from './context.js';
import { recordLocator } from './records.js';
import type { PinnedPacket } from './session.js';
import type { PlayState } from './state.js';
import { sessionLogRel } from './store.js';
import type { TurnRecord } from './types.js';

type Start = Extract<TurnRecord, { type: 'start' }>;

/**
 * The packet a resumed session plays: the one its start record pinned. A log written before
 * sessions pinned theirs has none: the scene's packet is looked up as when a session starts, once,
 * and `notice` says so (that lookup may find another plan's packet than the one it started with).
 */
export function pinnedPacketOf(root: string, start: Start, notice: (message: string) => void): PinnedPacket | null {
  if (start.packet) return { packet: start.packet, file: start.packet_file ?? '(the start record)' };
  if (!isPlanned(start.setup)) return null;
  const found = findScenePacket(root, start.setup.episode ? `${start.setup.episode}/${start.setup.scene}` : start.setup.scene);
  notice(`session ${start.session} began before sessions kept their scene packet: ${start.setup.scene} is played from ${found.file} (${found.why}), looked up again now`);
  return { packet: found.packet, file: found.file };
}

/**
 * Who a resumed session puts on stage, against the world as it stands now. An id the world no longer
 * has (a character removed, a hand-edited log) refuses the resume, exit 3, each at its record's
 * line:column and pointer (AUR6209): the scene cannot be built without it. A dead principal refuses
 * it too, as for a new session (requireLiving, AUR7102, exit 2): nobody plays the dead. A dead cast
 * member is returned, to leave the stage (session.ts leave): the scene goes on without them, as a
 * planned scene started now would. Only an unfinished session is held to the living.
 * `log` is the session store's read (records and the text they came from, store.ts readLog): the
 * diagnostics are placed in that text, not in a second read of the file, which went around the
 * store's reader (a FIFO put there since hung it) and could place them in another log than the one checked.
 */
export function checkResumeCast(id: string, log: { records: TurnRecord[]; text: string }, state: PlayState, world: World): string[] {
  const { records } = log;
  const start = records[0] as Start;
  const has = (who: string) => world.characters.characters.some((c) => c.id === who);
  const missing: { index: number; who: string; d: Diagnostic }[] = [];
  const gone = (index: number, pointer: string, what: string, who: string, file = 'world/characters.json') => missing.push({ index, who, d: diag('AUR6209', { what, id: who, file, session: id }, { file: sessionLogRel(id), pointer }) });
  if (!has(start.setup.principal)) gone(0, '/setup/principal', 'principal', start.setup.principal);
  start.setup.cast.forEach((who, i) => {
    if (!has(who)) gone(0, `/setup/cast/${i}`, 'cast member', who);
  });
  if (!world.world.locations.some((l) => l.id === start.setup.location)) gone(0, '/setup/location', 'location', start.setup.location, 'world/world.json');
  // Those a /character brought in (and no undo took back): at the record that brought them.
  for (const who of state.cast.filter((c) => !start.setup.cast.includes(c) && !has(c))) {
    const index = records.map((r, i) => (r.type === 'command' && r.name === 'character' && r.args === who ? i : -1)).reduce((a, b) => Math.max(a, b), -1);
    gone(Math.max(index, 0), index < 0 ? '' : '/args', 'cast member', who);
  }
  if (missing.length) {
    const rel = sessionLogRel(id);
    throw new AureusError(`session ${id} cannot resume: the world has no ${[...new Set(missing.map((m) => `"${m.who}"`))].join(', ')}`, { exitCode: ExitCode.INVALID_WORLD, diagnostics: missing.map((m) => recordLocator(log.text, m.index, rel)(m.d)) });
  }
  if (state.complete) return [];
  requireLiving(world, start.setup.principal, `session ${id}'s principal`, `the session cannot go on: \`aureus session show ${id}\` reads it; play another character in a new session (\`aureus play --as <id> …\`)`);
  return state.cast.filter((c) => world.characters.characters.find((x) => x.id === c)?.status !== 'alive');
}
