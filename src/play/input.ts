/**
 * What a user line may carry: ANSI escapes and control characters are removed (a terminal paste
 * or a stray Ctrl-key must not reach the model or the log), and a line over the limit is cut with
 * a notice rather than refused, so nothing the user typed silently disappears.
 */
export const DEFAULT_MAX_INPUT = 2000;
// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;?]*[ -/]*[@-~]|\u001b[@-_]/g;
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

export interface CleanInput {
  text: string;
  truncated: boolean;
  notices: string[];
}

export function cleanInput(raw: string, max: number = DEFAULT_MAX_INPUT): CleanInput {
  const notices: string[] = [];
  let text = raw.replace(/\r$/, '');
  const stripped = text.replace(ANSI, '').replace(CONTROL, '');
  if (stripped !== text) notices.push(`removed ${[...text].length - [...stripped].length} control character(s) from your line`);
  text = stripped.replace(/\t/g, ' ').trim();
  const chars = [...text];
  let truncated = false;
  if (chars.length > max) {
    text = chars.slice(0, max).join('');
    truncated = true;
    notices.push(`your line was ${chars.length} characters; cut at the limit of ${max} (play.max_input in aureus.config.yaml, or --max-input)`);
  }
  return { text, truncated, notices };
}
