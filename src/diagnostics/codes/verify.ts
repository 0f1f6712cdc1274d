import { defineDiagnostics } from '../catalog.js';

// AUR5xxx — writer output and verification, stages E-G.
// Findings reuse these entries: the message is the finding's message, the hint its fix instruction.
// Codes are stable; docs/verifier.md lists each rule with its severity.
defineDiagnostics([
  // Parsing the writer's output (spec §6.3 format).
  { code: 'AUR5001', severity: 'error', message: 'the {section} section is missing from the writer output', hint: 'Output exactly three sections in order: ---SCENE_TEXT---, ---CLAIMS---, ---SCENE_EVENTS---.' },
  { code: 'AUR5002', severity: 'error', message: 'the {section} section is not JSON: {detail}', hint: 'Give the {section} section as one JSON array and nothing else.' },
  { code: 'AUR5003', severity: 'warning', message: 'the {section} JSON needed repair ({detail})', hint: 'Emit strict JSON: no trailing commas, no comments, no code fences.' },
  { code: 'AUR5004', severity: 'error', message: '{section}{pointer} does not match its schema: {detail}', hint: 'Follow the {section} schema: {expected}.' },
  { code: 'AUR5005', severity: 'error', message: 'the SCENE_TEXT section is empty', hint: 'Write the scene before the CLAIMS section.' },
  { code: 'AUR5006', severity: 'error', message: 'the scene has {words} words of text, fewer than the {min} required (verifier.min_scene_words)', hint: 'Write the whole scene: action and dialogue that depict every beat, not only its heading and cast line.' },
  { code: 'AUR5007', severity: 'warning', message: '{field} carried control or bidi characters ({removed}): removed before the scene was judged and committed', hint: 'Write plain text only: no control characters, terminal escapes or bidi overrides ({removed}).' },
  // Invariants (spec §9.1).
  { code: 'AUR5010', severity: 'error', message: '{name} is dead but speaks', hint: 'Remove every line spoken by {name}; the dead may only be mentioned.' },
  { code: 'AUR5011', severity: 'error', message: '{name} is dead but acts in event {event}', hint: 'Give event {event} to a living cast member or drop it; {name} is dead.' },
  { code: 'AUR5012', severity: 'error', message: '{name} speaks but is not in the scene cast', hint: 'Only the cast may speak: {cast}. Introduce an extra only through a minor_character claim.' },
  { code: 'AUR5013', severity: 'error', message: 'event {event} has {name} as {role} but {name} is not in the scene cast', hint: 'Events may only involve the cast: {cast}.' },
  { code: 'AUR5014', severity: 'error', message: '{name} appears at {location} but was at {from} ({days} day(s) away, {available} available)', hint: '{name} cannot reach {location} in time: leave {name} out of this scene.' },
  // The same invariants read from the prose (issue 14): hard when the reading is sure, soft when doubtful.
  { code: 'AUR5015', severity: 'error', message: '{name} is dead but {how} in the prose', hint: 'Cut what {name} does or says on stage; the dead may only be mentioned or remembered.' },
  { code: 'AUR5016', severity: 'error', message: '{name} {how} on stage in the prose but is not in the scene cast', hint: 'Only the cast may speak or act on stage: {cast}. Mention {name} only as absent.' },
  { code: 'AUR5017', severity: 'error', message: '{name} is in this scene at {location} but the prose places them at {place}', hint: 'Keep {name} at {location} for the whole scene; cut the cut-away to {place}.' },
  { code: 'AUR5022', severity: 'error', message: 'the prose has {name} pay {amount} denarii ("{text}") with {balance} available', hint: 'Pay at most {balance} denarii, or only name the sum without paying it.' },
  { code: 'AUR5023', severity: 'error', message: 'the prose shows {amount} denarii paid ("{text}"), a sum no transfer of this scene moves (transfers: {moved})', hint: 'Show only the payments the scene\'s transfers make, with their sums ({moved}); other money may be named, owed or offered, not paid.' },
  { code: 'AUR5020', severity: 'error', message: 'event {event} overdraws {account}: {balance} denarii available, {amount} moved', hint: 'Move at most {balance} denarii from {account}, or only the transfers the packet requires.' },
  { code: 'AUR5021', severity: 'error', message: 'event {event} spends the same denarii twice (transfer {from} -> {to} of {amount} repeats a required transfer)', hint: 'List each required transfer once, in the event aligned to its application.' },
  // Plan compliance.
  { code: 'AUR5030', severity: 'error', message: 'event {event} depicts {operator} ({application}) while its prerequisite {expr} is false on the projected state', hint: 'Do not show {operator} taking effect here; its prerequisite {expr} does not hold.' },
  { code: 'AUR5031', severity: 'error', message: 'required delta {delta} of application {application} is not in the scene events', hint: 'Show it on screen and list it in SCENE_EVENTS with application_id "{application}": {delta}.' },
  { code: 'AUR5032', severity: 'error', message: 'event {event} depicts a change ({delta}) that no planned application of this scene requires', hint: 'Only the packet\'s required deltas may change the world; describe other things without deltas.' },
  { code: 'AUR5034', severity: 'error', message: 'event {event} depicts {operator} succeeding ({path}) but the plan says it fails', hint: 'Write the failure: {directive}' },
  { code: 'AUR5035', severity: 'error', message: 'beat {beat} ({operator}) is planned to fail but the prose shows it coming off', hint: 'Write the failure the packet directs; nothing changes hands, nobody follows, nothing gives way.' },
  { code: 'AUR5036', severity: 'error', message: 'the cliffhanger is resolved in the closing lines', hint: 'End on the open question: {hook}' },
  // A required change declared in SCENE_EVENTS must be on stage too (docs/verifier.md): events record what the prose shows.
  { code: 'AUR5037', severity: 'error', message: 'beat {beat} ({operator}) is declared in event {event}, but the prose never shows {what}', hint: 'Write {what} into the scene, in action or dialogue ({directive}); SCENE_EVENTS only record what the prose shows.' },
  { code: 'AUR5033', severity: 'error', message: 'event {event} names application {application} which is not planned for this scene', hint: 'Use only these application ids: {known}.' },
  // Claims (spec §8.3).
  { code: 'AUR5040', severity: 'warning', message: '{count} claims exceed the {max} inventions allowed in this scene: the weakest ({claim}) downgraded to rumour', hint: 'Introduce at most {max} new facts; {claim} will only be the cast\'s rumour.' },
  { code: 'AUR5041', severity: 'error', message: 'claim {claim} is a {kind}, which this scene may not invent (allowed: {allowed})', hint: 'Drop claim {claim} or recast it as one of: {allowed}.' },
  { code: 'AUR5042', severity: 'error', message: 'claim {claim} contradicts canon: {detail}', hint: 'Drop claim {claim}; canon says {canon}.' },
  { code: 'AUR5043', severity: 'error', message: 'claim {claim} states the hidden secret {secret} as fact, and nobody in the cast holds it', hint: 'Do not reveal {secret} here; at most hint at it without stating it.' },
  { code: 'AUR5044', severity: 'warning', message: 'claim {claim} names the subject "{subject}", which no entity of the world has as its id: it becomes canon without a subject', hint: 'Give "subject" only as the id of a character, place, faction, secret, thread or account of the world; leave it out for someone or something new.' },
  { code: 'AUR5045', severity: 'warning', message: 'claim {claim} is denied by the scene ("{sentence}"): it does not become canon', hint: 'Drop claim {claim}, or change the scene: the scene and its claims cannot say opposite things.' },
  { code: 'AUR5046', severity: 'error', message: 'the prose states a forbidden fact: {fact}', hint: 'Nobody here knows this: cut it, or leave it as a hint or a rumour nobody confirms.' },
  { code: 'AUR5047', severity: 'error', message: 'the prose contradicts canon: {detail}', hint: 'Keep to canon: {detail}.' },
  { code: 'AUR5048', severity: 'warning', message: 'the prose tells the secret {secret} in the hearing of {who}, who does not hold it, and no planned change makes them a holder', hint: 'Keep {who} out of hearing (gone, asleep, spoken to apart), cut the telling, or plan the reveal: a required delta adding them to the holders of {secret}.' },
  // Voice.
  { code: 'AUR5050', severity: 'error', message: 'anachronism "{word}"', hint: 'Replace "{word}" with {replacement}.' },
  // Soft quality gates (spec §9.2).
  { code: 'AUR5060', severity: 'warning', message: 'the scene does not end on a hook or button line', hint: 'End on one short line (dialogue or action) that turns the scene: {hook}' },
  { code: 'AUR5061', severity: 'warning', message: 'critic: {detail}', hint: '{fix}' },
  { code: 'AUR5070', severity: 'warning', message: 'the episode has no approved {beat} beat', hint: 'Plan and depict exactly one {beat}.' },
  { code: 'AUR5071', severity: 'warning', message: 'thread {thread} has not progressed for {since} episode(s) (cadence {cadence})', hint: 'Advance {thread} this episode.' },
  // Orchestration and CLI.
  { code: 'AUR5080', severity: 'error', message: 'cannot read {what} {file}: {detail}', hint: 'Pass an existing file.' },
  { code: 'AUR5081', severity: 'error', message: '{file} is not a scene packet: {detail}', hint: 'Pass a packets/SCxx.json written by stage D.' },
  { code: 'AUR5082', severity: 'error', message: 'lexicon {file} cannot be used: {detail}', hint: 'A lexicon is the markdown of style/lexicon.md or a JSON array of {"forbidden": …, "replacement": …}; fix the problems listed with it.' },
  { code: 'AUR5083', severity: 'error', message: 'lexicon {where} {detail}', hint: 'Write each entry as {"forbidden": "word", "replacement": "Roman word"}.' },
  { code: 'AUR5084', severity: 'warning', message: 'cannot be read ({detail}), so {skipped} was skipped', hint: 'Fix or restore the file (aureus validate checks the world files); the scene was checked against the packet alone.' },
  { code: 'AUR5091', severity: 'warning', message: 'scene {scene} was rewritten with a simplified operator set', hint: 'Review {scene} by hand: optional applications and risks were dropped.' },
  // Repair (issue 13): punch-ups keep the opening, the critic advises, manual review.
  { code: 'AUR5096', severity: 'warning', message: 'the punch-up rewrote the opening it had to keep (from line {line})', hint: 'Keep the opening verbatim and rewrite only the ending.' },
  { code: 'AUR5097', severity: 'warning', message: '{count} scene(s) accepted for manual review: {scenes}', hint: 'The critic still fails them once their repair budget is spent; read them before the next episode (verifier_report.json lists why).' },
]);
