import type { Character, World } from '../domain/world.js';
import { formatDate } from '../core/roman-date.js';
import { formatDenarii, formatValue, READER_DECIMALS, roundForReader } from '../core/readable.js';
import { holdingChanges } from './assets-diff.js';

/**
 * A semantic diff of two worlds: what a showrunner asks after a stretch of episodes — who gained
 * or lost what, which secrets came out, which relationships moved, which threads advanced — in
 * words, not a JSON diff. Small float noise (< 0.05 on 0..1 weights, < 1 on stats) is ignored.
 */
export interface WorldDiff {
  date: { from: string; to: string } | null;
  metrics: { id: string; label: string; from: number; to: number }[];
  money: { account: string; owner: string; from: number; to: number }[];
  /** Goods, contracts and client networks: what changed of each, in words (assets-diff.ts). */
  holdings: { id: string; name: string; changes: string[] }[];
  characters: { id: string; name: string; changes: string[] }[];
  secrets: { id: string; text: string; from: string; to: string; new_holders: string[]; lost_holders: string[] }[];
  relationships: { from: string; to: string; changes: { weight: string; from: number; to: number }[]; flags_added: string[]; flags_removed: string[]; new_edge: boolean; gone: boolean }[];
  threads: { id: string; question: string; progress_from: number; progress_to: number; status_from: string; status_to: string }[];
  canon: { added: string[] };
}

const W_EPS = 0.05;

function dateStr(w: World): string {
  const d = w.world?.date;
  return d ? formatDate(d) : '?';
}

export function diffWorlds(a: World, b: World): WorldDiff {
  const name = (id: string) =>
    b.characters.characters.find((c) => c.id === id)?.name ??
    a.characters.characters.find((c) => c.id === id)?.name ??
    b.factions.factions.find((f) => f.id === id)?.name ??
    `the ${id.replace(/_/g, ' ')}`;
  const diff: WorldDiff = { date: null, metrics: [], money: [], holdings: [], characters: [], secrets: [], relationships: [], threads: [], canon: { added: [] } };

  if (dateStr(a) !== dateStr(b)) diff.date = { from: dateStr(a), to: dateStr(b) };

  for (const id of Object.keys(b.world.global).sort()) {
    const from = a.world.global[id]?.value ?? 0;
    const to = b.world.global[id].value;
    const [f, t] = [roundForReader(from, READER_DECIMALS.metric), roundForReader(to, READER_DECIMALS.metric)];
    if (f !== t) diff.metrics.push({ id, label: b.world.global[id].label, from: f, to: t });
  }

  const accA = new Map(a.assets.cash_ledger.map((x) => [x.id, x]));
  for (const acc of b.assets.cash_ledger) {
    const from = accA.get(acc.id)?.denarii ?? 0;
    if (from !== acc.denarii) diff.money.push({ account: acc.id, owner: name(acc.owner), from, to: acc.denarii });
  }
  diff.holdings = holdingChanges(a.assets, b.assets, name);

  const charA = new Map(a.characters.characters.map((c) => [c.id, c]));
  for (const c of b.characters.characters) {
    const p = charA.get(c.id);
    const changes = characterChanges(p, c);
    if (changes.length) diff.characters.push({ id: c.id, name: c.name, changes });
  }
  const charB = new Set(b.characters.characters.map((c) => c.id));
  for (const c of a.characters.characters) if (!charB.has(c.id)) diff.characters.push({ id: c.id, name: c.name, changes: ['leaves the story'] });

  const secA = new Map(a.secrets.secrets.map((s) => [s.id, s]));
  for (const s of b.secrets.secrets) {
    const p = secA.get(s.id);
    const from = p?.status ?? 'absent';
    const newH = s.holders.filter((h) => !(p?.holders ?? []).includes(h)).map(name);
    const lostH = (p?.holders ?? []).filter((h) => !s.holders.includes(h)).map(name);
    if (from !== s.status || newH.length || lostH.length) diff.secrets.push({ id: s.id, text: s.text, from, to: s.status, new_holders: newH, lost_holders: lostH });
  }

  const key = (r: { from: string; to: string }) => `${r.from}>${r.to}`;
  const relA = new Map(a.relationships.relationships.map((r) => [key(r), r]));
  for (const r of b.relationships.relationships) {
    const p = relA.get(key(r));
    const changes: { weight: string; from: number; to: number }[] = [];
    for (const w of Object.keys(r.weights).sort()) {
      const from = p ? ((p.weights as Record<string, number>)[w] ?? 0) : 0;
      const to = (r.weights as Record<string, number>)[w];
      if (Math.abs(to - from) >= W_EPS) changes.push({ weight: w, from: roundForReader(from, READER_DECIMALS.weight), to: roundForReader(to, READER_DECIMALS.weight) });
    }
    const fa = r.flags.filter((f) => !(p?.flags ?? []).includes(f));
    const fr = (p?.flags ?? []).filter((f) => !r.flags.includes(f));
    if (changes.length || fa.length || fr.length || !p) diff.relationships.push({ from: name(r.from), to: name(r.to), changes, flags_added: fa, flags_removed: fr, new_edge: !p, gone: false });
  }
  const relB = new Set(b.relationships.relationships.map(key));
  for (const r of a.relationships.relationships) if (!relB.has(key(r))) diff.relationships.push({ from: name(r.from), to: name(r.to), changes: [], flags_added: [], flags_removed: [], new_edge: false, gone: true });

  const thrA = new Map(a.threads.threads.map((t) => [t.id, t]));
  for (const t of b.threads.threads) {
    const p = thrA.get(t.id);
    if (!p || roundForReader(p.progress, READER_DECIMALS.weight) !== roundForReader(t.progress, READER_DECIMALS.weight) || p.status !== t.status) {
      diff.threads.push({ id: t.id, question: t.question, progress_from: roundForReader(p?.progress ?? 0, READER_DECIMALS.weight), progress_to: roundForReader(t.progress, READER_DECIMALS.weight), status_from: p?.status ?? 'absent', status_to: t.status });
    }
  }

  const factsA = new Set((a.canon?.facts ?? []).map((f) => f.id));
  diff.canon.added = (b.canon?.facts ?? []).filter((f) => !factsA.has(f.id)).map((f) => f.text);
  return diff;
}

/** What changed for one character between two worlds, in words (the character is new when p is absent). */
function characterChanges(p: Character | undefined, c: Character): string[] {
  const changes: string[] = [];
  if (!p) return ['enters the story'];
  if (p.status !== c.status) changes.push(`status ${p.status} → ${c.status}`);
  if (p.faction !== c.faction) changes.push(`changed sides ${p.faction} → ${c.faction}`);
  if ((p.office ?? '') !== (c.office ?? '')) changes.push(c.office ? `now ${c.office}${p.office ? ` (was ${p.office})` : ''}` : `no longer ${p.office}`);
  if (p.location !== c.location) changes.push(`moved ${p.location} → ${c.location}`);
  for (const s of Object.keys(c.stats).sort()) {
    const d = (c.stats as Record<string, number>)[s] - ((p.stats as Record<string, number>)[s] ?? 0);
    if (Math.abs(d) >= 1) changes.push(`${d > 0 ? 'gained' : 'lost'} ${formatValue(Math.abs(d), 'stat')} ${s}`);
  }
  const addI = c.bdi.intentions.filter((i) => !p.bdi.intentions.includes(i));
  const remI = p.bdi.intentions.filter((i) => !c.bdi.intentions.includes(i));
  if (addI.length) changes.push(`now intends ${addI.join(', ')}`);
  if (remI.length) changes.push(`gave up ${remI.join(', ')}`);
  const addB = c.bdi.beliefs.filter((x) => !p.bdi.beliefs.includes(x));
  if (addB.length) changes.push(`came to believe: ${addB.join('; ')}`);
  return changes;
}

export function renderDiff(d: WorldDiff, fromLabel: string, toLabel: string): string {
  const out: string[] = [`World changes from ${fromLabel} to ${toLabel}`, ''];
  const section = (title: string, lines: string[]) => {
    if (!lines.length) return;
    out.push(title, ...lines.map((l) => `  ${l}`), '');
  };
  if (d.date) section('Calendar', [`${d.date.from} → ${d.date.to}`]);
  section('Gained and lost', d.money.map((m) => `${m.owner}: ${m.to > m.from ? 'gained' : 'lost'} ${formatDenarii(Math.abs(m.to - m.from))} (${formatDenarii(m.from)} → ${formatDenarii(m.to)})`));
  section('Holdings', d.holdings.map((h) => `${h.name}: ${h.changes.join('; ')}`));
  section('Characters', d.characters.map((c) => `${c.name}: ${c.changes.join('; ')}`));
  section(
    'Secrets',
    d.secrets.map((s) => {
      const bits: string[] = [];
      if (s.from !== s.to) bits.push(s.to === 'revealed' ? 'REVEALED' : `${s.from} → ${s.to}`);
      if (s.new_holders.length) bits.push(`now known to ${s.new_holders.join(', ')}`);
      if (s.lost_holders.length) bits.push(`no longer held by ${s.lost_holders.join(', ')}`);
      return `${s.text} — ${bits.join('; ')}`;
    }),
  );
  section(
    'Relationships',
    d.relationships.map((r) => {
      const bits = r.changes.map((c) => `${c.weight} ${c.from} → ${c.to}`);
      if (r.flags_added.length) bits.push(`now ${r.flags_added.join(', ')}`);
      if (r.flags_removed.length) bits.push(`no longer ${r.flags_removed.join(', ')}`);
      return r.gone ? `${r.from} → ${r.to}: no longer tied` : `${r.from} → ${r.to}${r.new_edge ? ' (new)' : ''}: ${bits.join('; ')}`;
    }),
  );
  section(
    'Threads advanced',
    d.threads.map((t) => `${t.question} — progress ${t.progress_from} → ${t.progress_to}${t.status_from !== t.status_to ? `, ${t.status_from} → ${t.status_to}` : ''}`),
  );
  section('Rome', d.metrics.map((m) => `${m.label}: ${m.from} → ${m.to}`));
  section('New canon', d.canon.added);
  if (out.length === 2) out.push('No change to the world.', '');
  return out.join('\n');
}
