// The android's `recording`: a log for its player, at most rules.android.recordingLimit
// characters. One line each time its intention changes, e.g.
//   r31 (4,3) bat 80 hp 95: start an extractor at (5,6) on 3 ore, 1 water with 8 metal, 1 electronics
// Read it with `nova android --file GAME ANDROID_ID` after a run.

import { at, View } from './sense';

/** The recording with `line` appended, trimmed from the front (whole lines) to fit the limit. */
export function note(recording: string, line: string): string {
  const limit = rules.android.recordingLimit;
  let text = recording ? recording + '\n' + line : line;
  if (text.length > limit) {
    const cut = text.indexOf('\n', text.length - limit);
    text = cut >= 0 ? text.slice(cut + 1) : text.slice(text.length - limit);
  }
  return text;
}

/** A recording line: round, position, battery and health, then what was decided and why. */
export function logLine(v: View, what: string): string {
  const me = v.me;
  return 'r' + turn + ' ' + at(v.here) + ' bat ' + Math.round(me.battery) + ' hp ' + Math.round(me.health) + ': ' + what;
}
