import type { AppliedDelta } from '../../domain/delta.js';
import type { World } from '../../domain/world.js';
import { round } from '../../core/json.js';
import { formatNumber, formatSigned } from '../../core/readable.js';
import { compareText } from '../../core/text-order.js';

/**
 * The recap is generated from the applied deltas, never from the prose (spec §11.2): this module
 * turns AppliedDelta[] into named, ordered recap events and a state dashboard. The `recap` LLM
 * role (offline realizer by default) only turns the events into "Previously on…" sentences.
 */
export type RecapEvent =
  | { kind: 'transfer'; scene: string; from: string; to: string; amount: number }
  | { kind: 'status'; scene: string; who: string; value: string }
  | { kind: 'secret'; scene: string; secret: string; subject: string; value: string }
  | { kind: 'learned'; scene: string; secret: string; who: string }
  | { kind: 'relationship'; scene: string; from: string; to: string; weight: string; change: number }
  | { kind: 'stat'; scene: string; who: string; stat: string; change: number }
  | { kind: 'global'; scene: string; metric: string; change: number; noun?: string }
  | { kind: 'thread'; scene: string; question: string; status: string; progress: number }
  | { kind: 'intention'; scene: string; who: string; intention: string; added: boolean; phrase?: string }
  | { kind: 'location'; scene: string; who: string; place: string }
  | { kind: 'fact'; scene: string; text: string };

export interface DashboardMetric {
  id: string;
  label: string;
  before: number;
  after: number;
  min: number;
  max: number;
}

export interface DashboardThread {
  id: string;
  question: string;
  status: string;
  progress_before: number;
  progress: number;
  advanced: boolean;
  episodes_since_progress: number;
  cadence: number;
  cadence_status: 'ok' | 'due' | 'overdue' | 'resolved' | 'dormant';
}

export interface Dashboard {
  metrics: DashboardMetric[];
  threads: DashboardThread[];
  /** Full name → the name the audience knows (the cue), so a recap names someone in full once. */
  short_names?: Record<string, string>;
}

export interface RecapPayload {
  task: 'recap';
  episode_id: string;
  title: string;
  world_title: string;
  events: RecapEvent[];
  dashboard: Dashboard;
  cliffhanger: { summary: string; open_question: string };
}

const FIRST_METRICS = ['unrest', 'grain_index', 'legal_exposure'];

/**
 * A metric as the subject of a sentence ("Unrest in the streets rose by 1"): world labels are
 * written for the dashboard ("How much of the year's dirt is heading for the courts"), so the
 * starter metrics have short nouns here; another world's metric uses its label without the
 * scale note, or its id in words when the label is a question.
 */
const METRIC_NOUNS: Record<string, string> = {
  unrest: 'unrest in the streets',
  grain_index: 'the grain in the public granaries',
  legal_exposure: 'the legal danger to the powerful',
  scandal_temp: 'the heat of gossip',
  senate_resolve: "the Senate's resolve",
  threat_level: 'the danger of an armed rising',
  threat_to_goals: 'the pressure on every plan',
  public_order: 'public order',
  treasury: 'the treasury',
};

export function metricNoun(id: string, label: string | undefined): string {
  if (METRIC_NOUNS[id]) return METRIC_NOUNS[id];
  const plain = (label ?? '').replace(/\s*\([^)]*\)\s*/g, ' ').trim();
  if (plain && !/^(how|what|who|which|whether|will|is|are|does|do|can)\b/i.test(plain)) return /^\p{Lu}\p{Ll}/u.test(plain) && !/^The\b/.test(plain) ? plain.charAt(0).toLowerCase() + plain.slice(1) : plain.replace(/^The\b/, 'the');
  return id.replace(/_/g, ' ');
}

/** An intention id in words, names keeping their capitals ("INDICT_CATILINE" → "indict Catiline"). */
export function intentionWords(world: World, intention: string): string {
  const names = new Set(world.characters.characters.flatMap((c) => [...c.name.split(/\s+/), c.cue].map((w) => w.toLowerCase())));
  return intention.replace(/_/g, ' ').toLowerCase().split(' ').map((w) => (names.has(w) ? w.charAt(0).toUpperCase() + w.slice(1) : w)).join(' ');
}

function nameOf(world: World, id: string): string {
  const direct =
    world.characters.characters.find((c) => c.id === id)?.name ??
    world.factions.factions.find((f) => f.id === id)?.name ??
    world.world.locations.find((l) => l.id === id)?.name;
  if (direct) return direct;
  // A ledger account: its owner's name, else the id in words ("annona_fund" -> "the annona fund").
  const acc = world.assets.cash_ledger.find((a) => a.id === id);
  if (acc && acc.owner !== id) return nameOf(world, acc.owner);
  return `the ${id.replace(/_/g, ' ')}`;
}

function num(v: unknown): number {
  return typeof v === 'number' ? v : 0;
}

/** Recap events in scene order; small weight/stat moves of one pair in one episode are summed. */
export function recapEvents(applied: AppliedDelta[], before: World, after: World): RecapEvent[] {
  const events: RecapEvent[] = [];
  const sums = new Map<string, RecapEvent & { change: number }>();
  const sum = (key: string, ev: RecapEvent & { change: number }) => {
    const cur = sums.get(key);
    if (cur) cur.change = round(cur.change + ev.change);
    else {
      sums.set(key, ev);
      events.push(ev);
    }
  };
  const n = (id: string) => nameOf(after, id) || nameOf(before, id);
  for (const d of applied) {
    const scene = d.provenance.scene;
    const seg = d.path.split('.');
    if (d.op === 'transfer') {
      events.push({ kind: 'transfer', scene, from: n(d.from ?? ''), to: n(d.to ?? ''), amount: d.amount ?? 0 });
    } else if (seg[0] === 'characters' && seg[2] === 'status') {
      events.push({ kind: 'status', scene, who: n(seg[1]), value: String(d.after) });
    } else if (seg[0] === 'characters' && seg[2] === 'location') {
      events.push({ kind: 'location', scene, who: n(seg[1]), place: n(String(d.after)) });
    } else if (seg[0] === 'characters' && seg[2] === 'stats') {
      sum(`stat/${seg[1]}/${seg[3]}`, { kind: 'stat', scene, who: n(seg[1]), stat: seg[3], change: round(num(d.after) - num(d.before)) });
    } else if (seg[0] === 'characters' && seg[3] === 'intentions') {
      events.push({ kind: 'intention', scene, who: n(seg[1]), intention: String(d.value), added: d.op === 'add', phrase: intentionWords(after, String(d.value)) });
    } else if (seg[0] === 'relationships' && seg.length === 4 && seg[3] !== 'flags') {
      sum(`rel/${seg[1]}/${seg[2]}/${seg[3]}`, { kind: 'relationship', scene, from: n(seg[1]), to: n(seg[2]), weight: seg[3], change: round(num(d.after) - num(d.before)) });
    } else if (seg[0] === 'secrets') {
      const s = after.secrets.secrets.find((x) => x.id === seg[1]) ?? before.secrets.secrets.find((x) => x.id === seg[1]);
      if (!s) continue;
      if (seg[2] === 'status' && d.before !== d.after) events.push({ kind: 'secret', scene, secret: s.text, subject: n(s.subject), value: String(d.after) });
      if (seg[2] === 'holders' && d.op === 'add') events.push({ kind: 'learned', scene, secret: s.text, who: n(String(d.value)) });
    } else if (seg[0] === 'world' && seg[1] === 'global') {
      const label = after.world.global[seg[2]]?.label ?? seg[2];
      sum(`global/${seg[2]}`, { kind: 'global', scene, metric: label, noun: metricNoun(seg[2], label), change: round(num(d.after) - num(d.before)) });
    } else if (seg[0] === 'threads' && (seg[2] === 'progress' || seg[2] === 'status')) {
      const t = after.threads.threads.find((x) => x.id === seg[1]);
      if (!t) continue;
      const prior = events.find((e) => e.kind === 'thread' && e.question === t.question);
      if (!prior) events.push({ kind: 'thread', scene, question: t.question, status: t.status, progress: round(t.progress) });
    }
  }
  return events.filter((e) => !('change' in e) || e.change !== 0);
}

export function buildDashboard(before: World, after: World, episode: number): Dashboard {
  const ids = Object.keys(after.world.global).sort((a, b) => {
    const ia = FIRST_METRICS.indexOf(a);
    const ib = FIRST_METRICS.indexOf(b);
    return (ia < 0 ? 99 : ia) - (ib < 0 ? 99 : ib) || compareText(a, b);
  });
  const metrics = ids.map((id) => {
    const m = after.world.global[id];
    return { id, label: m.label, before: round(before.world.global[id]?.value ?? m.value), after: round(m.value), min: m.min, max: m.max };
  });
  const threads = after.threads.threads.map((t): DashboardThread => {
    const b = before.threads.threads.find((x) => x.id === t.id);
    const since = Math.max(0, episode - t.last_progress_episode);
    const advanced = t.last_progress_episode === episode || (b !== undefined && t.progress !== b.progress);
    const cadence_status: DashboardThread['cadence_status'] =
      t.status === 'resolved' ? 'resolved' : t.status === 'dormant' ? 'dormant' : since > t.cadence ? 'overdue' : since === t.cadence ? 'due' : 'ok';
    return {
      id: t.id,
      question: t.question,
      status: t.status,
      progress_before: round(b?.progress ?? t.progress),
      progress: round(t.progress),
      advanced,
      episodes_since_progress: since,
      cadence: t.cadence,
      cadence_status,
    };
  });
  const short_names: Record<string, string> = {};
  for (const c of after.characters.characters) {
    const cue = c.cue.charAt(0).toUpperCase() + c.cue.slice(1).toLowerCase();
    if (cue !== c.name) short_names[c.name] = cue;
  }
  return { metrics, threads, short_names };
}

const fmt = (n: number): string => formatNumber(n, 2);
const signed = (n: number): string => formatSigned(n, 2);

/** recap.md: the "Previously on…" text (from the recap role) and the state dashboard. */
export function renderRecapMarkdown(payload: RecapPayload, text: string): string {
  const lines: string[] = [`# ${payload.episode_id.toUpperCase()}: ${payload.title} — Recap`, '', text.trim(), '', '## State of the Republic', ''];
  lines.push('| Metric | Before | After | Change |', '| --- | ---: | ---: | ---: |');
  for (const m of payload.dashboard.metrics) lines.push(`| ${m.label} | ${fmt(m.before)} | ${fmt(m.after)} | ${signed(round(m.after - m.before))} |`);
  lines.push('', '## Threads', '', '| Thread | Status | Progress | Since progress | Cadence |', '| --- | --- | ---: | ---: | --- |');
  for (const t of payload.dashboard.threads) {
    const prog = t.progress !== t.progress_before ? `${fmt(t.progress_before)} → ${fmt(t.progress)}` : fmt(t.progress);
    lines.push(`| ${t.question} | ${t.status}${t.advanced ? ' (advanced)' : ''} | ${prog} | ${t.episodes_since_progress} | ${t.cadence_status} (max ${t.cadence}) |`);
  }
  lines.push('', `**Open question:** ${payload.cliffhanger.open_question}`, '');
  return lines.join('\n');
}
