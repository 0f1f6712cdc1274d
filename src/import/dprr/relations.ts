import type { WeightName } from '../../domain/world.js';

/**
 * DPRR relationship types → edge weights from the person towards the related person. Family ties
 * carry affection and loyalty with a little sibling rivalry; adoption adds debt (the adoptee owes
 * name and fortune); divorce leaves rivalry. These are the importer's reading of Roman family
 * politics, not data: DPRR records only that the relation exists.
 */
export interface TieTemplate {
  weights: Partial<Record<WeightName, number>>;
  flags: string[];
}

const parent: TieTemplate = { weights: { affection: 0.6, loyalty: 0.5, trust: 0.5, rivalry: 0.05 }, flags: ['kin', 'parent'] };
const child: TieTemplate = { weights: { affection: 0.55, loyalty: 0.7, trust: 0.5, fear: 0.2, debt: 0.2 }, flags: ['kin', 'child'] };
const grandparent: TieTemplate = { weights: { affection: 0.5, loyalty: 0.4, trust: 0.4 }, flags: ['kin'] };
const grandchild: TieTemplate = { weights: { affection: 0.4, loyalty: 0.6, debt: 0.1, trust: 0.4 }, flags: ['kin'] };
const sibling: TieTemplate = { weights: { affection: 0.5, loyalty: 0.55, rivalry: 0.25, trust: 0.45 }, flags: ['kin', 'sibling'] };
const step: TieTemplate = { weights: { affection: 0.3, loyalty: 0.35, rivalry: 0.2, trust: 0.3 }, flags: ['kin', 'step'] };
const avuncular: TieTemplate = { weights: { affection: 0.4, loyalty: 0.35, trust: 0.35 }, flags: ['kin'] };
const nephew: TieTemplate = { weights: { affection: 0.35, loyalty: 0.45, debt: 0.15, trust: 0.35 }, flags: ['kin'] };
const cousin: TieTemplate = { weights: { affection: 0.35, loyalty: 0.3, rivalry: 0.2, trust: 0.3 }, flags: ['kin'] };
const adoptee: TieTemplate = { weights: { loyalty: 0.75, debt: 0.5, affection: 0.4, trust: 0.5 }, flags: ['kin', 'adopted'] };
const adopter: TieTemplate = { weights: { affection: 0.5, loyalty: 0.5, trust: 0.5 }, flags: ['kin', 'adoptive_parent'] };

const TABLE: Record<string, TieTemplate> = {
  'father of': parent,
  'mother of': parent,
  'son of': child,
  'daughter of': child,
  'grandfather of': grandparent,
  'grandmother of': grandparent,
  'great grandfather of': grandparent,
  'grandson of': grandchild,
  'granddaughter of': grandchild,
  'great grandson of': grandchild,
  'great granddaughter of': grandchild,
  'brother of': sibling,
  'sister of': sibling,
  'halfbrother of': sibling,
  'halfsister of': sibling,
  'adoptive brother of': sibling,
  'stepbrother of': step,
  'stepsister of': step,
  'stepfather of': step,
  'stepson of': step,
  'uncle of': avuncular,
  'aunt of': avuncular,
  'great uncle of': avuncular,
  'nephew of': nephew,
  'niece of': nephew,
  'great nephew of': nephew,
  'cousin of': cousin,
  'adopted son of': adoptee,
  'adopted grandson of': adoptee,
  'adoptive father of': adopter,
  'adoptive mother of': adopter,
  'adoptive grandfather': adopter,
  'married to': { weights: { affection: 0.5, loyalty: 0.6, trust: 0.5 }, flags: ['married'] },
  'divorced from': { weights: { affection: 0.1, rivalry: 0.45, trust: 0.1 }, flags: ['former_spouse'] },
  'betrothed to': { weights: { affection: 0.3, loyalty: 0.4, trust: 0.3, debt: 0.1 }, flags: ['betrothed'] },
  'related to': { weights: { affection: 0.25, loyalty: 0.25, trust: 0.25 }, flags: ['kin'] },
};

const UNKNOWN: TieTemplate = { weights: { affection: 0.2, loyalty: 0.2, trust: 0.2 }, flags: ['kin'] };

export function tieTemplate(relationship: string): TieTemplate {
  return TABLE[relationship.trim().toLowerCase()] ?? UNKNOWN;
}

/** Colleagues in the same college and year: they share the fasces and compete for the glory. */
export const COLLEAGUE: TieTemplate = { weights: { rivalry: 0.35, trust: 0.25, loyalty: 0.15 }, flags: ['colleague'] };
