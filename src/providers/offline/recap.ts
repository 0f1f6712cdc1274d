import type { RecapEvent, RecapPayload } from '../../stages/h-commit/recap-model.js';
import type { OfflineRealizer } from './index.js';
import { INTENTION_PHRASES, lowerLead } from './writer-phrases.js';

/**
 * The offline realizer of the `recap` role: a deterministic "Previously on…" text written from
 * the recap events (which come from the applied deltas). It picks the most consequential events
 * — deaths and arrests, revelations, money, threads — so a recap stays a paragraph, not a ledger.
 */
const WEIGHT: Record<RecapEvent['kind'], number> = {
  status: 0,
  secret: 1,
  transfer: 2,
  learned: 3,
  thread: 4,
  global: 5,
  relationship: 6,
  intention: 7,
  location: 8,
  stat: 9,
  fact: 10,
};

const REL_WORDS: Record<string, [string, string]> = {
  loyalty: ['grew more loyal to', 'turned less loyal to'],
  fear: ['came to fear', 'stopped fearing'],
  debt: ['fell deeper into debt to', 'paid down a debt to'],
  affection: ['warmed to', 'cooled towards'],
  rivalry: ['sharpened a rivalry with', 'eased a rivalry with'],
  trust: ['came to trust', 'lost trust in'],
};

const STATUS_WORDS: Record<string, string> = { dead: 'is dead', exiled: 'was driven into exile', imprisoned: 'was thrown into a cell', alive: 'returned among the living' };

function denarii(n: number): string {
  return `${n.toLocaleString('en-US')} denarii`;
}

/** Open threads in turn, so two of them never start the same way. */
const THREAD_LEADS = ['Still unanswered: ', 'Closer to an answer: ', 'And the question remains: '];

function cap(s: string): string {
  return s ? s[0]!.toUpperCase() + s.slice(1) : s;
}

/** `nth`: how many sentences of this kind came before, for variety. */
function sentence(e: RecapEvent, nth = 0): string {
  switch (e.kind) {
    case 'status':
      return `${e.who} ${STATUS_WORDS[e.value] ?? `is now ${e.value}`}.`;
    case 'secret':
      return e.value === 'revealed'
        ? `The secret is out: ${lowerLead(e.secret).replace(/\.$/, '')}.`
        : e.value === 'rumored'
          ? `Rumour spread that ${lowerLead(e.secret).replace(/\.$/, '')}.`
          : e.value === 'inert'
            ? `An old secret about ${e.subject} lost its sting.`
            : `${e.subject}'s secret went back into the dark.`;
    case 'learned':
      return `${e.who} learned that ${lowerLead(e.secret).replace(/\.$/, '')}.`;
    case 'transfer':
      return `${denarii(e.amount)} passed from ${e.from} to ${e.to}.`;
    case 'thread':
      return e.status === 'resolved' ? `Settled at last: ${e.question}` : `${THREAD_LEADS[nth % THREAD_LEADS.length]}${e.question}`;
    case 'global': {
      const by = Math.abs(e.change);
      return `${cap(e.noun ?? e.metric)} ${e.change > 0 ? 'rose' : 'fell'} by ${by} point${by === 1 ? '' : 's'}.`;
    }
    case 'relationship': {
      const w = REL_WORDS[e.weight];
      return w ? `${e.from} ${e.change > 0 ? w[0] : w[1]} ${e.to}.` : `${e.from} and ${e.to}: ${e.weight} ${e.change > 0 ? 'up' : 'down'}.`;
    }
    case 'intention': {
      const what = INTENTION_PHRASES[e.intention] ?? e.phrase ?? e.intention.replace(/_/g, ' ').toLowerCase();
      return e.added ? `${e.who} resolved to ${what}.` : `${e.who} abandoned the plan to ${what}.`;
    }
    case 'location':
      return `${e.who} went to ${e.place}.`;
    case 'stat':
      return `${e.who}'s ${e.stat} ${e.change > 0 ? 'rose' : 'fell'}.`;
    case 'fact':
      return e.text;
  }
}

/** After its first mention a full name shortens to the name the audience knows. */
function shortenRepeats(text: string, short: Record<string, string> | undefined): string {
  let out = text;
  for (const [full, cue] of Object.entries(short ?? {}).sort((a, b) => b[0].length - a[0].length)) {
    const at = out.indexOf(full);
    if (at < 0) continue;
    out = out.slice(0, at + full.length) + out.slice(at + full.length).split(full).join(cue);
  }
  return out;
}

/** At most this many sentences of one kind, so one busy ledger cannot crowd out the drama. */
const PER_KIND: Partial<Record<RecapEvent['kind'], number>> = { transfer: 2, learned: 2, global: 2, relationship: 2, intention: 1, location: 1, stat: 1, thread: 2 };

function salience(e: RecapEvent): number {
  if (e.kind === 'transfer') return e.amount;
  if ('change' in e) return Math.abs(e.change);
  if (e.kind === 'thread') return e.status === 'resolved' ? 2 : e.progress;
  return 0;
}

export function realizeRecap(payload: RecapPayload, maxSentences = 8): string {
  const indexed = payload.events.map((e, i) => ({ e, i }));
  const kept: typeof indexed = [];
  for (const kind of Object.keys(WEIGHT) as RecapEvent['kind'][]) {
    const ofKind = indexed.filter((x) => x.e.kind === kind).sort((a, b) => salience(b.e) - salience(a.e) || a.i - b.i);
    kept.push(...ofKind.slice(0, PER_KIND[kind] ?? 3));
  }
  const ranked = kept
    .sort((a, b) => WEIGHT[a.e.kind] - WEIGHT[b.e.kind] || a.i - b.i)
    .slice(0, maxSentences)
    .sort((a, b) => a.i - b.i);
  const count = new Map<string, number>();
  const sentences = ranked.map(({ e }) => {
    const k = count.get(e.kind) ?? 0;
    count.set(e.kind, k + 1);
    return sentence(e, k);
  });
  const seen = new Set<string>();
  const unique = sentences.filter((s) => (seen.has(s) ? false : (seen.add(s), true)));
  const opening = `Previously on ${payload.world_title}…`;
  const body = unique.length ? unique.join(' ') : 'Rome held its breath; nothing that mattered changed hands.';
  const close = payload.cliffhanger.summary ? `And at the last: ${payload.cliffhanger.summary.replace(/\s+/g, ' ').trim().replace(/\.?$/, '.')}` : '';
  return [opening, '', shortenRepeats([body, ...(close ? ['', close] : [])].join('\n'), payload.dashboard?.short_names)].join('\n') + '\n';
}

/** The offline dispatcher's entry point for the `recap` role (src/providers/offline/index.ts). */
export const realize: OfflineRealizer = (req) => {
  const payload = req.payload as RecapPayload | undefined;
  if (!payload || payload.task !== 'recap' || !Array.isArray(payload.events)) {
    return { text: 'Previously on Aureus…\n\nThe record of the last episode could not be read.\n' };
  }
  return { text: realizeRecap(payload) };
};
