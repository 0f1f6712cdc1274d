import { STAT_NAMES, WEIGHT_NAMES } from '../domain/world.js';
import { DATE_FIELDS, OPS_BY_TARGET, type PathTarget } from '../core/deltas/paths.js';
import { readSchema } from './files.js';
import { pointerSegments } from '../core/json-pointer.js';

/**
 * Where, in the world schemas, lives the field a delta path writes (docs/paths.md): the schema file and
 * the JSON pointer of the field's own schema (of one item, for the list paths). `aureus validate`
 * checks an operator's literal effect values against it (store/effect-values.ts) with a small schema
 * derived from that sub-schema (specs.ts, key `field/…`), so the rule is the schema's and there is no
 * second list of ranges, enums and patterns to keep in step with the files.
 */
export interface DeltaField {
  file: string;
  pointer: string;
}

export function deltaField(t: PathTarget): DeltaField {
  switch (t.kind) {
    case 'global':
      // The metric's declared min..max is data, not schema (and the engine clamps to it): the type only.
      return { file: 'world.schema.json', pointer: '/$defs/metric/properties/value' };
    case 'date':
      return { file: 'world.schema.json', pointer: `/properties/date/properties/${t.field}` };
    case 'stat':
      return { file: 'characters.schema.json', pointer: `/$defs/character/properties/stats/properties/${t.stat}` };
    case 'char_status':
      return { file: 'characters.schema.json', pointer: '/$defs/character/properties/status' };
    case 'char_location':
      return { file: 'characters.schema.json', pointer: '/$defs/character/properties/location' };
    case 'bdi':
      return { file: 'characters.schema.json', pointer: `/$defs/bdi/properties/${t.list}/items` };
    case 'weight':
      return { file: 'relationships.schema.json', pointer: `/$defs/relationship/properties/weights/properties/${t.weight}` };
    case 'edge_flags':
      return { file: 'relationships.schema.json', pointer: '/$defs/relationship/properties/flags/items' };
    case 'secret_status':
      return { file: 'secrets.schema.json', pointer: '/$defs/secret/properties/status' };
    case 'secret_value':
      return { file: 'secrets.schema.json', pointer: `/$defs/secret/properties/${t.field}` };
    case 'secret_holders':
      return { file: 'secrets.schema.json', pointer: '/$defs/secret/properties/holders/items' };
    case 'secret_told_in':
      return { file: 'secrets.schema.json', pointer: '/$defs/secret/properties/told_in' };
    case 'thread_progress':
      return { file: 'threads.schema.json', pointer: '/$defs/thread/properties/progress' };
    case 'thread_status':
      return { file: 'threads.schema.json', pointer: '/$defs/thread/properties/status' };
    case 'thread_last_progress':
      return { file: 'threads.schema.json', pointer: '/$defs/thread/properties/last_progress_episode' };
    case 'ledger':
    case 'account':
      // A mint, a burn and a transfer's amount are themselves denarii: whole, never negative.
      return { file: 'assets.schema.json', pointer: '/$defs/account/properties/denarii' };
  }
}

/**
 * How a value relates to its field: `set`, a list item and a ledger amount are values of the field
 * (its whole rule applies); add/subtract/multiply on a number are changes to it (the engine clamps
 * the result), so only the field's type applies — a stat may well go up by 150, it stops at 100.
 */
export type FieldMode = 'value' | 'type';

export function fieldMode(t: PathTarget, op: string): FieldMode {
  const list = t.kind === 'bdi' || t.kind === 'edge_flags' || t.kind === 'secret_holders';
  return op === 'set' || op === 'transfer' || list || t.kind === 'account' ? 'value' : 'type';
}

/**
 * The validator key of a field under a mode (specs.ts turns it into a schema). Under `type` the key
 * is the field's type alone (`field-type/number`): every numeric field shares one validator.
 */
export function fieldKey(f: DeltaField, mode: FieldMode): string {
  return mode === 'value' ? `field/${f.file}#${f.pointer}` : `field-type/${fieldType(f)}`;
}

const types = new Map<string, string>();

/** The JSON type a field's schema declares (read once per field and process). */
function fieldType(f: DeltaField): string {
  const k = `${f.file}#${f.pointer}`;
  let t = types.get(k);
  if (t === undefined) {
    const declared = (schemaAt(readSchema(f.file), f.pointer) as { type?: unknown } | undefined)?.type;
    if (typeof declared !== 'string') throw new Error(`${k} declares no single type`);
    t = declared;
    types.set(k, t);
  }
  return t;
}

/** The JSON pointer's node in a parsed schema (undefined when it names nothing). */
export function schemaAt(schema: unknown, pointer: string): unknown {
  let node = schema;
  for (const seg of pointerSegments(pointer)) {
    if (node === null || typeof node !== 'object' || !Object.prototype.hasOwnProperty.call(node, seg)) return undefined;
    node = (node as Record<string, unknown>)[seg];
  }
  return node;
}

/** Every field key the build precompiles: each writable field under the modes its ops use. */
export function allFieldKeys(): string[] {
  const targets: PathTarget[] = [
    { kind: 'global', metric: 'm' },
    ...DATE_FIELDS.map((field): PathTarget => ({ kind: 'date', field })),
    ...STAT_NAMES.map((stat): PathTarget => ({ kind: 'stat', character: 'c', stat })),
    { kind: 'char_status', character: 'c' },
    { kind: 'char_location', character: 'c' },
    { kind: 'bdi', character: 'c', list: 'beliefs' },
    { kind: 'bdi', character: 'c', list: 'intentions' },
    ...WEIGHT_NAMES.map((weight): PathTarget => ({ kind: 'weight', from: 'a', to: 'b', weight })),
    { kind: 'edge_flags', from: 'a', to: 'b' },
    { kind: 'secret_status', secret: 's' },
    { kind: 'secret_value', secret: 's', field: 'legal_value' },
    { kind: 'secret_value', secret: 's', field: 'public_damage' },
    { kind: 'secret_holders', secret: 's' },
    { kind: 'secret_told_in', secret: 's' },
    { kind: 'thread_progress', thread: 't' },
    { kind: 'thread_status', thread: 't' },
    { kind: 'thread_last_progress', thread: 't' },
    { kind: 'account', account: 'a' },
  ];
  const keys = new Set<string>();
  for (const t of targets) for (const op of OPS_BY_TARGET[t.kind]) keys.add(fieldKey(deltaField(t), fieldMode(t, op)));
  return [...keys].sort();
}
