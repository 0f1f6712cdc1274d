import { describe, expect, it } from 'vitest';
import { STAT_NAMES, WEIGHT_NAMES } from '../../src/domain/world.js';
import type { Effect, Operator } from '../../src/domain/world.js';
import { accountIds, BEATS, charIds, DESIRE_KINDS, ops, SETTINGS, TOKEN, world } from './starter-kit.js';

/**
 * Structural checks of the starter kit's operators (issue 2, "The starter season kit"), read
 * straight from operators/operators.json: their roles, guidance, effects and the move families
 * the Director needs. prereqs.test.ts evaluates them with the expression engine.
 */

/** Role names of an operator plus the segments a role-relative path may start with. */
function rolesOf(op: Operator): string[] {
  return Object.keys(op.roles);
}

describe('starter kit: operators', () => {
  it('has 25-40 operators, at least 12 thriller and 10 soap, covering the mandatory beats several times', () => {
    expect(ops.length).toBeGreaterThanOrEqual(25);
    expect(ops.length).toBeLessThanOrEqual(40);
    expect(ops.filter((o) => o.type === 'thriller').length).toBeGreaterThanOrEqual(12);
    expect(ops.filter((o) => o.type === 'soap').length).toBeGreaterThanOrEqual(10);
    for (const beat of ['reveal', 'reversal', 'confrontation', 'cliffhanger', 'complication']) {
      expect(ops.filter((o) => o.beats.includes(beat as never)).length, beat).toBeGreaterThanOrEqual(3);
    }
  });

  it('declares well-formed roles, guidance, settings, desires and thread tags', () => {
    const threadTags = new Set(world.threads.threads.flatMap((t) => t.tags));
    for (const op of ops) {
      expect(op.id).toMatch(/^op_[a-z0-9_]+$/);
      expect(op.roles.actor?.kind, op.id).toBe('character');
      for (const b of op.beats) expect(BEATS).toContain(b);
      for (const s of op.settings) expect(SETTINGS).toContain(s);
      expect(op.settings.length, op.id).toBeGreaterThan(0);
      expect(op.serves.length, op.id).toBeGreaterThan(0);
      for (const s of op.serves) expect(DESIRE_KINDS).toContain(s);
      expect(op.thread_tags.length, op.id).toBeGreaterThan(0);
      for (const t of op.thread_tags) expect(threadTags.has(t), `${op.id} tag ${t}`).toBe(true);
      expect(op.prereqs.length, op.id).toBeGreaterThan(0);
      expect(op.writer_guidance.success_beat.length, op.id).toBeGreaterThan(0);
      expect(op.writer_guidance.fail_beat.length, op.id).toBeGreaterThan(0);
      expect(op.writer_guidance.visual_cues.length, op.id).toBeGreaterThan(0);
      expect(op.side_effect_risks.length, op.id).toBeGreaterThan(0);
      for (const r of op.side_effect_risks) expect(r.prob > 0 && r.prob < 1, op.id).toBe(true);
      // Every location setting an operator may use exists in the world.
      for (const s of op.settings) expect(world.world.locations.some((l) => l.setting === s), `${op.id} setting ${s}`).toBe(true);
    }
    expect(ops.some((o) => o.side_effect_risks.some((r) => r.effects?.length))).toBe(true);
  });

  it('writes guidance with bare role names, which the packet stage replaces by the bound names', () => {
    // d-packets binds "actor", "target", … in success_beat/fail_beat to names; a role word that is
    // not a declared role would be left unbound, and a beat that names no role cannot be bound at all.
    const roleWords = /\b(actor|target|rival|secret|thread)\b/g;
    for (const op of ops) {
      const roles = rolesOf(op);
      for (const key of ['success_beat', 'fail_beat'] as const) {
        const text = op.writer_guidance[key];
        for (const m of text.matchAll(roleWords)) expect(roles, `${op.id}.${key}: "${m[1]}"`).toContain(m[1]);
      }
      expect(roles.some((r) => new RegExp(`\\b${r}\\b`).test(op.writer_guidance.success_beat)), `${op.id}.success_beat names a role`).toBe(true);
      for (const cue of op.writer_guidance.visual_cues) expect(cue, op.id).not.toMatch(/\b(actor|target|rival)\b/);
    }
  });

  it('writes effects only in the role-relative path forms, with moderate magnitudes', () => {
    const weight = new Set<string>(WEIGHT_NAMES);
    const stats = new Set<string>(STAT_NAMES);
    const metrics = new Set(Object.keys(world.world.global));
    const check = (op: Operator, e: Effect) => {
      const roles = rolesOf(op);
      const seg = e.path.split('.');
      const where = `${op.id}: ${e.path}`;
      const num = typeof e.value === 'number' ? Math.abs(e.value) : undefined;
      if (seg[0] === 'world') {
        expect(seg[1], where).toBe('global');
        expect(metrics.has(seg[2]!), where).toBe(true);
        if (num !== undefined) expect(num >= 0.5 && num <= 1, where).toBe(true);
      } else if (seg[0] === 'relationships') {
        expect(seg.length, where).toBe(4);
        for (const s of [seg[1]!, seg[2]!]) expect(roles.includes(s) || charIds.has(s), where).toBe(true);
        expect(weight.has(seg[3]!) || seg[3] === 'flags', where).toBe(true);
        if (num !== undefined) expect(num >= 0.1 && num <= 0.3, where).toBe(true);
      } else if (seg[0] === 'assets') {
        expect(e.path, where).toBe('assets.cash_ledger');
        expect(e.op, where).toBe('transfer');
        for (const s of [e.from!, e.to!]) expect(roles.includes(s) || accountIds.has(s), where).toBe(true);
        expect(typeof e.amount === 'number' && Number.isInteger(e.amount) && e.amount > 0, where).toBe(true);
        // Affordable: a prereq guarantees the payer's balance covers the amount.
        const payer = roles.includes(e.from!) ? e.from! : `'${e.from}'`;
        const guard = op.prereqs.some((p) => {
          const m = new RegExp(`balance\\(${payer.replace(/[()']/g, (c) => '\\' + c)}\\)\\s*>=\\s*(\\d+)`).exec(p.expr);
          return m !== null && Number(m[1]) >= (e.amount as number);
        });
        expect(guard, `${where} has no balance(${payer}) >= ${String(e.amount)} prereq`).toBe(true);
      } else {
        expect(roles.includes(seg[0]!), where).toBe(true);
        const kind = op.roles[seg[0]!]!.kind;
        const rest = seg.slice(1).join('.');
        if (kind === 'character') {
          expect(stats.has(rest) || ['status', 'location', 'bdi.beliefs', 'bdi.intentions'].includes(rest) || /^stats\.\w+$/.test(rest), where).toBe(true);
          if (stats.has(rest) && num !== undefined) expect(num >= 5 && num <= 15, where).toBe(true);
          if (rest === 'bdi.intentions') expect(String(e.value), where).toMatch(TOKEN);
        } else if (kind === 'secret') {
          expect(['status', 'legal_value', 'public_damage', 'holders'].includes(rest), where).toBe(true);
        } else if (kind === 'thread') {
          expect(['progress', 'status', 'last_progress_episode'].includes(rest), where).toBe(true);
          if (rest === 'progress' && e.op === 'add') expect(num! >= 0.1 && num! <= 0.25, where).toBe(true);
        }
      }
    };
    for (const op of ops) {
      expect(op.effects.length, op.id).toBeGreaterThan(0);
      for (const e of op.effects) check(op, e);
      for (const r of op.side_effect_risks) for (const e of r.effects ?? []) check(op, e);
    }
  });

  it('includes the move families the Director needs', () => {
    const has = (pred: (e: Effect, op: Operator) => boolean) => ops.filter((op) => op.effects.some((e) => pred(e, op))).map((o) => o.id);
    const reveals = has((e) => (/\.status$/.test(e.path) && ['revealed', 'rumored'].includes(String(e.value))) || /\.holders$/.test(e.path));
    const flips = has((e) => e.path === 'target.bdi.intentions' && e.op === 'add');
    const moves = has((e) => /\.location$/.test(e.path) && e.op === 'set');
    const advances = has((e, op) => e.path === 'thread.progress' && e.op === 'add' && op.roles.thread?.kind === 'thread');
    const transfers = has((e) => e.op === 'transfer');
    expect(reveals.length).toBeGreaterThanOrEqual(4);
    expect(flips).toContain('op_witness_flip');
    expect(flips.length).toBeGreaterThanOrEqual(3);
    expect(moves.length).toBeGreaterThanOrEqual(2);
    expect(advances.length).toBeGreaterThanOrEqual(6);
    expect(transfers.length).toBeGreaterThanOrEqual(4);
    // Every thread can be advanced by some operator's thread tags.
    for (const t of world.threads.threads) expect(ops.some((o) => o.thread_tags.some((x) => t.tags.includes(x))), t.id).toBe(true);
  });
});
