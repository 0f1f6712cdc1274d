import type { Gender } from '../../../domain/world.js';
import { genderOf } from '../../../core/forms-of-address.js';
import type { VerifyContext } from '../context.js';
import type { PersonIndex } from './names.js';

/**
 * A person's gender for reading "he" and "she": as the packet or the world declares it, else as the
 * name tells it (a praenomen: a man, core/forms-of-address; a nomen in -ia alone: a woman), else
 * unknown. The pronoun readers (pronoun-doer.ts, receiver.ts) decide what an unknown gender fits.
 */
export function likelyGender(id: string, index: PersonIndex, ctx: VerifyContext): Gender | undefined {
  const declared = ctx.packet.cast.find((c) => c.id === id)?.gender ?? ctx.characters?.find((c) => c.id === id)?.gender;
  const name = index.byId.get(id)?.name ?? '';
  return genderOf({ name, gender: declared }) ?? (/^\p{Lu}\p{Ll}+ia$/u.test(name.trim()) ? 'female' : undefined);
}
