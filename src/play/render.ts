import type { PlayEvent } from './types.js';

/**
 * What the user sees for each event. Text: the rendered line only (`CUE: *action* "dialogue"`);
 * --json: one seed-000 stream event per line. Neither ever contains the brief: events carry no
 * brief field, and the Actor's fields were stripped of directives before the event was built.
 */
export function renderText(e: PlayEvent): { out?: string; err?: string } {
  switch (e.type) {
    case 'message_complete':
      return { out: `${e.content}\n` };
    case 'notice':
      return { err: `aureus: ${e.message}\n` };
    case 'canonized':
      return { out: e.commit ? `\n[canon] commit ${e.commit.slice(0, 10)}: accepted ${e.accepted.join(', ') || 'none'}; rejected ${Object.entries(e.rejected).map(([k, v]) => `${k} (${v})`).join(', ') || 'none'}\n` : `\n[canon] nothing to canonize\n` };
    case 'episode_complete': {
      const ev = e.evaluation;
      const lines = [
        '',
        `— Scene complete (${e.trigger}) —`,
        `Evaluation: ${ev.summary}`,
        'Key moments:',
        ...(ev.key_moments.length ? ev.key_moments.map((m) => `  - ${m}`) : ['  (none)']),
        `Your play style: ${ev.play_style}`,
        'What changed:',
        ...ev.world_changes.map((c) => `  - ${c}`),
        `Next: ${e.next_suggestion.command}  (${e.next_suggestion.reason})`,
      ];
      return { out: lines.join('\n') + '\n' };
    }
    case 'done':
      return { out: `\nsession ${e.session} saved (${e.turns} turn(s)); show it with \`aureus session show ${e.session}\`\n` };
  }
}

export function renderJson(e: PlayEvent): string {
  return JSON.stringify(e) + '\n';
}
