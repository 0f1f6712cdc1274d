import type { ResolvedDelta } from '../../domain/delta.js';
import { STAT_RANGE, WEIGHT_NAMES, WEIGHT_RANGE } from '../../domain/world.js';
import type { Relationship } from '../../domain/world.js';
import { checkOp, parsePath, type PathTarget } from './paths.js';
import type { Draft } from './draft.js';
import { formatAmount } from '../readable.js';
import {
  CHARACTER_STATUSES,
  DATE_RANGE,
  SECRET_STATUSES,
  THREAD_STATUSES,
  UNIT,
  clamp,
  enumValue,
  Fail,
  fail,
  listOp,
  numberValue,
  numeric,
  stringValue,
  whole,
} from './values.js';

/**
 * One delta on the draft world: parse its path, check its op, then write the one place it
 * targets (grouped by what it touches: the world file, a character, a relationship, a secret, a
 * thread, money). Each returns the value before and after; a bad delta throws a Fail.
 */

type Change = { before: unknown; after: unknown };
type Missing = (kind: string, id: string) => never;
type Target<K extends PathTarget['kind']> = Extract<PathTarget, { kind: K }>;

export function applyOne(draft: Draft, d: ResolvedDelta): Change {
  const p = parsePath(d.path);
  if (!p.ok) throw new Fail(p.diagnostic);
  const t: PathTarget = p.target;
  const opErr = checkOp(d.path, t, d.op);
  if (opErr) throw new Fail(opErr);
  const missing: Missing = (kind, id) => fail('AUR2023', { kind, id, path: d.path });

  switch (t.kind) {
    case 'global':
    case 'date':
      return applyWorld(draft, d, t, missing);
    case 'stat':
    case 'char_status':
    case 'char_location':
    case 'bdi':
      return applyCharacter(draft, d, t, missing);
    case 'weight':
    case 'edge_flags':
      return applyEdge(draft, d, t, missing);
    case 'secret_status':
    case 'secret_value':
    case 'secret_holders':
    case 'secret_told_in':
      return applySecret(draft, d, t, missing);
    case 'thread_progress':
    case 'thread_status':
    case 'thread_last_progress':
      return applyThread(draft, d, t, missing);
    case 'ledger':
    case 'account':
      return applyMoney(draft, d, t, missing);
  }
}

function applyWorld(draft: Draft, d: ResolvedDelta, t: Target<'global' | 'date'>, missing: Missing): Change {
  switch (t.kind) {
    case 'global': {
      const m = draft.metric(t.metric) ?? missing('global metric', t.metric);
      const after = numeric(d, m.value, { min: m.min, max: m.max });
      const before = m.value;
      draft.writeMetric(t.metric).value = after;
      return { before, after };
    }
    case 'date': {
      const v = numberValue(d);
      if (!Number.isInteger(v)) fail('AUR2022', { path: d.path, detail: `a date field is a whole number, got ${v}` });
      const date = draft.w.world?.date ?? missing('world date', 'date');
      const before = date[t.field];
      const after = clamp(v, DATE_RANGE[t.field]);
      const wf = draft.file('world');
      wf.date = { ...wf.date, [t.field]: after };
      return { before, after };
    }
  }
}

function applyCharacter(draft: Draft, d: ResolvedDelta, t: Target<'stat' | 'char_status' | 'char_location' | 'bdi'>, missing: Missing): Change {
  switch (t.kind) {
    case 'stat': {
      const c = draft.characters.get(t.character) ?? missing('character', t.character);
      const before = c.stats?.[t.stat];
      const after = numeric(d, before, STAT_RANGE);
      draft.characters.write(t.character)!.stats[t.stat] = after;
      return { before, after };
    }
    case 'char_status': {
      const c = draft.characters.get(t.character) ?? missing('character', t.character);
      const after = enumValue(d, CHARACTER_STATUSES);
      const before = c.status;
      draft.characters.write(t.character)!.status = after;
      return { before, after };
    }
    case 'char_location': {
      const c = draft.characters.get(t.character) ?? missing('character', t.character);
      const loc = stringValue(d);
      if (!(draft.w.world?.locations ?? []).some((l) => l.id === loc)) missing('location', loc);
      const before = c.location;
      draft.characters.write(t.character)!.location = loc;
      return { before, after: loc };
    }
    case 'bdi': {
      const c = draft.characters.get(t.character) ?? missing('character', t.character);
      const item = stringValue(d);
      const before = c.bdi?.[t.list] ?? [];
      const after = listOp(d, before, item);
      const w = draft.characters.write(t.character)!;
      w.bdi[t.list] = after;
      return { before, after };
    }
  }
}

function applyEdge(draft: Draft, d: ResolvedDelta, t: Target<'weight' | 'edge_flags'>, missing: Missing): Change {
  switch (t.kind) {
    case 'weight':
    case 'edge_flags': {
      for (const id of [t.from, t.to]) if (!draft.characters.get(id)) missing('character', id);
      if (t.from === t.to) fail('AUR2022', { path: d.path, detail: 'a relationship needs two different characters' });
      const key = `${t.from}>${t.to}`;
      // Validate the value before creating a missing edge, so a bad delta never adds one.
      if (t.kind === 'weight') numberValue(d);
      else stringValue(d);
      const existing = draft.relationships.get(key);
      const edge = existing
        ? draft.relationships.write(key)!
        : draft.relationships.push({
            from: t.from,
            to: t.to,
            weights: Object.fromEntries(WEIGHT_NAMES.map((w) => [w, 0])) as Relationship['weights'],
            flags: [],
          });
      if (t.kind === 'weight') {
        const before = existing ? existing.weights?.[t.weight] ?? 0 : 0;
        const after = numeric(d, before, WEIGHT_RANGE);
        edge.weights[t.weight] = after;
        return { before, after };
      }
      const before = existing?.flags ?? [];
      const after = listOp(d, before, stringValue(d));
      edge.flags = after;
      return { before, after };
    }
  }
}

function applySecret(draft: Draft, d: ResolvedDelta, t: Target<'secret_status' | 'secret_value' | 'secret_holders' | 'secret_told_in'>, missing: Missing): Change {
  switch (t.kind) {
    case 'secret_status': {
      const s = draft.secrets.get(t.secret) ?? missing('secret', t.secret);
      const after = enumValue(d, SECRET_STATUSES);
      const before = s.status;
      draft.secrets.write(t.secret)!.status = after;
      return { before, after };
    }
    case 'secret_value': {
      const s = draft.secrets.get(t.secret) ?? missing('secret', t.secret);
      const before = s[t.field];
      const after = numeric(d, before, UNIT);
      draft.secrets.write(t.secret)![t.field] = after;
      return { before, after };
    }
    case 'secret_holders': {
      const s = draft.secrets.get(t.secret) ?? missing('secret', t.secret);
      const who = stringValue(d);
      if (!draft.characters.get(who)) missing('character', who);
      const before = s.holders ?? [];
      const after = listOp(d, before, who);
      draft.secrets.write(t.secret)!.holders = after;
      return { before, after };
    }
    case 'secret_told_in': {
      const s = draft.secrets.get(t.secret) ?? missing('secret', t.secret);
      const after = stringValue(d);
      const before = s.told_in ?? null;
      draft.secrets.write(t.secret)!.told_in = after;
      return { before, after };
    }
  }
}

function applyThread(draft: Draft, d: ResolvedDelta, t: Target<'thread_progress' | 'thread_status' | 'thread_last_progress'>, missing: Missing): Change {
  switch (t.kind) {
    case 'thread_progress': {
      const th = draft.threads.get(t.thread) ?? missing('thread', t.thread);
      const before = th.progress;
      const after = numeric(d, before, UNIT);
      draft.threads.write(t.thread)!.progress = after;
      return { before, after };
    }
    case 'thread_status': {
      const th = draft.threads.get(t.thread) ?? missing('thread', t.thread);
      const after = enumValue(d, THREAD_STATUSES);
      const before = th.status;
      draft.threads.write(t.thread)!.status = after;
      return { before, after };
    }
    case 'thread_last_progress': {
      const th = draft.threads.get(t.thread) ?? missing('thread', t.thread);
      const v = numberValue(d);
      if (!Number.isInteger(v) || v < 0) fail('AUR2022', { path: d.path, detail: `an episode number must be a whole number >= 0, got ${v}` });
      const before = th.last_progress_episode;
      draft.threads.write(t.thread)!.last_progress_episode = v;
      return { before, after: v };
    }
  }
}

function applyMoney(draft: Draft, d: ResolvedDelta, t: Target<'ledger' | 'account'>, missing: Missing): Change {
  switch (t.kind) {
    case 'ledger': {
      const from = typeof d.from === 'string' ? d.from : fail('AUR2022', { path: d.path, detail: 'transfer needs from' });
      const to = typeof d.to === 'string' ? d.to : fail('AUR2022', { path: d.path, detail: 'transfer needs to' });
      if (from === to) fail('AUR2022', { path: d.path, detail: `transfer from '${from}' to itself` });
      const amount = whole(d, d.amount, 'amount');
      const a = draft.ledger.get(from) ?? missing('ledger account', from);
      const b = draft.ledger.get(to) ?? missing('ledger account', to);
      if (amount > a.denarii) fail('AUR2025', { amount: formatAmount(amount), from, balance: formatAmount(a.denarii) });
      const before = { [from]: a.denarii, [to]: b.denarii };
      const na = a.denarii - amount;
      const nb = b.denarii + amount;
      draft.ledger.write(from)!.denarii = na;
      draft.ledger.write(to)!.denarii = nb;
      return { before, after: { [from]: na, [to]: nb } };
    }
    case 'account': {
      const acc = draft.ledger.get(t.account) ?? missing('ledger account', t.account);
      const amount = whole(d, d.value, 'value');
      const before = acc.denarii;
      const after = d.op === 'add' ? before + amount : before - amount;
      if (after < 0) fail('AUR2026', { amount: formatAmount(amount), account: t.account, balance: formatAmount(before) });
      if (!Number.isSafeInteger(after)) fail('AUR2022', { path: d.path, detail: 'the balance exceeds the safe integer range' });
      draft.ledger.write(t.account)!.denarii = after;
      return { before, after };
    }
  }
}
