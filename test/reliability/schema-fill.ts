/**
 * What a model reads or answers, made whole again from its JSON schema: every required property
 * that is missing is given back when the schema alone says what it was — an empty list for an
 * array, null where null is allowed, the value of a `const`. The packet on the wire leaves empty
 * lists and nulls out (d-packets/wire.ts) and a structured-output answer always has its required
 * fields; driven by the schema, a new list field is filled without anyone listing it here.
 * Anything else missing stays missing, so a field the wire really lost still fails downstream.
 */
type Schema = Record<string, unknown>;

function resolve(s: Schema | undefined, root: Schema): Schema | undefined {
  const ref = s?.$ref;
  if (typeof ref !== 'string' || !ref.startsWith('#/')) return s;
  const target = ref
    .slice(2)
    .split('/')
    .reduce<unknown>((at, k) => (at as Record<string, unknown> | undefined)?.[k.replace(/~1/g, '/').replace(/~0/g, '~')], root);
  return resolve(target as Schema | undefined, root);
}

/** The schema's alternatives (anyOf/oneOf/allOf members, resolved), or the schema itself. */
function branches(s: Schema, root: Schema): Schema[] {
  const alts = [s.anyOf, s.oneOf, s.allOf].flatMap((a) => (Array.isArray(a) ? (a as Schema[]) : []));
  return [s, ...alts.flatMap((b) => branches(resolve(b, root) ?? {}, root))];
}

const typesOf = (s: Schema): unknown[] => (Array.isArray(s.type) ? s.type : s.type === undefined ? [] : [s.type]);

/** The value a missing property had, when the schema alone says it (undefined: it cannot say). */
function dropped(s: Schema, root: Schema): { value: unknown } | undefined {
  const alts = branches(s, root);
  const consts = alts.filter((b) => 'const' in b);
  if (consts.length === 1 && alts.length === 1) return { value: consts[0]!.const };
  if (alts.some((b) => typesOf(b).includes('array'))) return { value: [] };
  if (alts.some((b) => typesOf(b).includes('null') || (Array.isArray(b.enum) && b.enum.includes(null)))) return { value: null };
  return undefined;
}

/** `value` with its dropped required properties given back, at every depth the schema describes. */
export function fillFromSchema(value: unknown, schema: Schema, root: Schema = schema): unknown {
  const s = resolve(schema, root);
  if (!s) return value;
  if (Array.isArray(value)) {
    const items = branches(s, root).find((b) => b.items && typeof b.items === 'object')?.items as Schema | undefined;
    return items ? value.map((v) => fillFromSchema(v, items, root)) : value;
  }
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  for (const b of branches(s, root)) {
    const props = (b.properties ?? {}) as Record<string, Schema>;
    for (const key of Array.isArray(b.required) ? (b.required as string[]) : []) {
      const prop = resolve(props[key], root);
      if (key in out || !prop) continue;
      const d = dropped(prop, root);
      if (d) out[key] = d.value;
    }
    for (const [key, prop] of Object.entries(props)) if (key in out) out[key] = fillFromSchema(out[key], prop, root);
  }
  return out;
}
