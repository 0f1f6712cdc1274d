import { describe, expect, it } from 'vitest';
import { validatorFor } from '../../src/schemas/validators.js';
import { buildWriterRequest, writerReferences } from '../../src/stages/e-writer/prompt.js';
import { starterEpisode } from '../stages/write-verify/starter.js';
import { packetFromWire } from './fake-model.js';
import { fillFromSchema } from './schema-fill.js';

/**
 * The fake model's reading of the wire (fake-model.ts): what the wire leaves out when empty is
 * given back from the schema, so the packet a real prompt carries reads as a whole packet again,
 * and a list field added to a schema is filled without being named anywhere.
 */
describe('the fake model fills what the wire drops from the schema', () => {
  it('every packet of the starter episode, read off its real writer prompt, is a valid packet again', async () => {
    const ep = await starterEpisode('7');
    const references = writerReferences(ep.packets);
    const validate = validatorFor('store/scene_packet.schema.json');
    let emptied = 0;
    for (const p of ep.packets) {
      const req = buildWriterRequest(p, ep.style, { seed: '7', attempt: 1, mode: 'write', references, scene_count: ep.packets.length });
      const user = req.messages[0]!.content;
      const wire = JSON.parse(user.slice(user.lastIndexOf('SCENE_PACKET:\n') + 'SCENE_PACKET:\n'.length));
      const read = packetFromWire(wire, `${req.system}\n${req.static_context}`);
      // The bookkeeping the wire never sends (d-packets/wire.ts), put back to validate the rest.
      const { pruned, token_estimate, token_budget, state_hash_before, voices, marquee } = p;
      const whole = { ...read, pruned, token_estimate, token_budget, state_hash_before, marquee, ...(voices ? { voices } : {}) };
      validate(whole);
      // The wire also leaves out on purpose what is not the writer's to use (d-packets/wire.ts): the
      // stat numbers of characters off stage, the retrieval relevance of an edge. Any other gap
      // would be a field the wire dropped and the fill did not give back.
      const deliberate = (e: { keyword: string; params: object; instancePath: string }) =>
        e.keyword === 'required' && `${e.instancePath.replace(/\d+$/, 'N')} ${(e.params as { missingProperty: string }).missingProperty}`.match(/^\/retrieved_subgraph\/(characters\/N stats|edges\/N relevance)$/);
      const errors = (validate.errors ?? []).filter((e) => !deliberate(e));
      expect(errors.map((e) => `${e.instancePath} ${e.message}`), p.scene_id).toEqual([]);
      expect(read.dead).toEqual(p.dead);
      emptied += p.dead.length === 0 ? 1 : 0;
    }
    // Some scene has no dead: the wire dropped the list and the schema gave it back.
    expect(emptied).toBeGreaterThan(0);
  });

  it('fills a required list, a nullable and a const at any depth (through $ref and anyOf); leaves what it cannot know missing', () => {
    const schema = {
      type: 'object',
      required: ['v', 'beats', 'name'],
      properties: {
        v: { const: 1 },
        name: { type: 'string' },
        beats: { type: 'array', items: { $ref: '#/$defs/beat' } },
      },
      $defs: {
        beat: {
          type: 'object',
          required: ['id', 'tag', 'new_list', 'count'],
          properties: { id: { type: 'string' }, tag: { anyOf: [{ enum: ['reveal'] }, { type: 'null' }] }, new_list: { type: ['array', 'null'], items: { type: 'string' } }, count: { type: 'integer' } },
        },
      },
    };
    expect(fillFromSchema({ beats: [{ id: 'b1' }, { id: 'b2', tag: 'reveal', new_list: ['x'], count: 2 }] }, schema)).toEqual({
      v: 1,
      beats: [
        { id: 'b1', tag: null, new_list: [] },
        { id: 'b2', tag: 'reveal', new_list: ['x'], count: 2 },
      ],
    });
  });
});
