import type { InWorldDate } from './world.js';

/**
 * Historical anchors (issue 17, item 4): the optional world/anchors.json declares dated fixed
 * points of the story and the operators that stage them. docs/planning.md, "Season model".
 */
export type AnchorMode = 'not_before' | 'by';

export interface Anchor {
  id: string;
  date: InWorldDate;
  title: string;
  /** Operator ids (operators/operators.json) that stage the event. */
  operators: string[];
  /** not_before: never staged before the date; by: one of the operators is played once the season reaches the date. */
  mode: AnchorMode;
  /** History changed on this branch: the anchor is ignored. */
  waived?: boolean;
  note?: string;
}

export interface AnchorsFile {
  format: 1;
  anchors: Anchor[];
}

export const ANCHORS_REL = 'world/anchors.json';
