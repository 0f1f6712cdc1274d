import type { Finding, SceneEvent } from '../../../domain/scene.js';
import type { ParsedWriterOutput } from '../../e-writer/parse.js';
import type { VerifyContext } from '../context.js';
import { readProse } from './reader.js';
import { prosePresenceRules } from '../rules/prose-presence.js';
import { proseMoneyRules } from '../rules/prose-money.js';
import { proseLedgerRules } from '../rules/prose-ledger.js';
import { proseCanonRules, proseForbiddenRules } from '../rules/prose-facts.js';
import { proseCliffhangerRules, proseOutcomeRules } from '../rules/prose-outcome.js';
import { proseNewsRules } from '../rules/prose-news.js';
import { proseBeatRules } from '../rules/prose-beats.js';
import { proseSecretHeardRules } from '../rules/prose-secret-heard.js';
import { proseStrangerRules } from '../rules/prose-strangers.js';

/**
 * Every prose rule over one answer (issue 14): the scene text is read once, then judged like the
 * structured sections. Claim and event texts are read as narration too (line 0: no span). `events`: the
 * SCENE_EVENTS the rules may judge, whose required changes the prose must show (prose-beats.ts). `claimedExtras`: the
 * texts of the answer's `minor_character` claims, upper case (none by default), or null when its CLAIMS are unusable.
 */
export function proseRules(p: ParsedWriterOutput, ctx: VerifyContext, extraTexts: string[], events: readonly SceneEvent[] = [], claimedExtras: readonly string[] | null = []): Finding[] {
  const r = readProse(p, ctx, extraTexts);
  // A sum paid beyond the payer's means (AUR5022) is the graver fault; its sentence is not judged again against the transfers.
  const money = proseMoneyRules(r, ctx);
  const all = [
    ...prosePresenceRules(r, ctx),
    ...proseStrangerRules(r, ctx, claimedExtras),
    ...(money.length ? money : proseLedgerRules(r, ctx)),
    ...proseForbiddenRules(r, ctx),
    ...proseSecretHeardRules(r, ctx),
    ...proseCanonRules(r, ctx),
    ...proseNewsRules(r, ctx),
    ...proseOutcomeRules(r, ctx),
    ...proseCliffhangerRules(r, ctx),
    ...proseBeatRules(r, ctx, events),
  ];
  // Each rule grades its reading and makes a sure one hard and a doubtful one soft; the finding says which.
  return all.map((f) => ({ ...f, confidence: f.severity === 'hard' ? 'sure' : 'doubtful' }));
}
