import { CurationRefused } from './errors';

/** Shortest public note or summary: "ok", "typo" and "n/a" say nothing to the people who read the Record. */
export const MIN_PUBLIC_TEXT = 10;

// Any C0/C1 control character (newlines and tabs included): public text is one line, as emails and feeds show it.
const control = /\p{Cc}/u;

/**
 * Public text (candidate summaries, corrected summaries, correction and
 * withdrawal notes): trimmed, one line, no control characters, between
 * MIN_PUBLIC_TEXT and `max` characters. Returns the trimmed text.
 */
export function publicText(what: string, raw: string, max: number): string {
  const text = raw.trim();
  if (control.test(text)) throw new CurationRefused(`${what} contains a control character (newline, tab or other); public text is one plain line`, 'invalid_text');
  if (text.length < MIN_PUBLIC_TEXT) throw new CurationRefused(`${what} is ${text.length} characters after trimming; at least ${MIN_PUBLIC_TEXT} are needed`, 'invalid_text');
  if (text.length > max) throw new CurationRefused(`${what} is ${text.length} characters; at most ${max}`, 'invalid_text');
  return text;
}

/** Operator-side text (reviewer names, review notes): trimmed, no control characters, not empty. */
export function operatorText(what: string, raw: string, max = 2000): string {
  const text = raw.trim();
  if (text.length === 0) throw new CurationRefused(`${what} is empty`, 'invalid_text');
  if (control.test(text.replace(/[\n\t]/g, ' '))) throw new CurationRefused(`${what} contains a control character`, 'invalid_text');
  if (text.length > max) throw new CurationRefused(`${what} is ${text.length} characters; at most ${max}`, 'invalid_text');
  return text;
}
