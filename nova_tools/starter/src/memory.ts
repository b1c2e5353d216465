// What this android remembers between turns (its `memory`, at most rules.android.memoryLimit
// characters) and what it tells its player (its `recording`, at most rules.android.recordingLimit
// characters). Both travel with the action: a refused action keeps neither, so the android
// only ever returns actions it has checked.

import { at, indexOf, isHazard, View } from './sense';
import { total } from './economy';

export interface Memory {
  /** Format version: a memory from another script version is ignored. */
  v: number;
  /** The tile of the charger this android calls home. */
  home?: number;
  /** Loose material last seen: [tile, units]. Sight is not memory: this is. */
  loot: [number, number][];
  /** Tiles seen holding acid or radiation. */
  hazards: number[];
  /** Building types of the plan already completed. */
  built: BuildingType[];
  /** Where the next building of the plan goes, once chosen. */
  site?: number;
  /** Index of the exploration waypoint being walked to. */
  waypoint: number;
  /** What the android was doing last turn, so the recording only logs changes. */
  intent: string;
}

const VERSION = 1;

export function load(text: string): Memory {
  if (text) {
    try {
      const m = JSON.parse(text) as Memory;
      if (m && m.v === VERSION) return m;
    } catch (_) {
      // A memory from something else: start afresh.
    }
  }
  return { v: VERSION, loot: [], hazards: [], built: [], waypoint: -1, intent: '' };
}

/** Fold this turn's sight into memory: loose material appears and disappears, hazards stay. */
export function remember(m: Memory, v: View): void {
  const loot = new Map<number, number>(m.loot);
  const hazards = new Set<number>(m.hazards);
  for (const t of v.tiles.values()) {
    const i = indexOf(t.position);
    const n = total(t.scattered);
    if (n > 0) loot.set(i, n);
    else loot.delete(i);
    if (isHazard(t)) hazards.add(i);
    else hazards.delete(i);
  }
  m.loot = Array.from(loot.entries());
  m.hazards = Array.from(hazards);
}

/** The memory as text that fits rules.android.memoryLimit, forgetting the least useful first. */
export function save(m: Memory): string {
  const limit = rules.android.memoryLimit;
  let text = JSON.stringify(m);
  while (text.length > limit && (m.loot.length > 0 || m.hazards.length > 0)) {
    if (m.hazards.length >= m.loot.length) m.hazards = m.hazards.slice(0, m.hazards.length >> 1);
    else m.loot = m.loot.slice(0, m.loot.length >> 1);
    text = JSON.stringify(m);
  }
  return text.length <= limit ? text : '';
}

/**
 * The recording with `line` appended, trimmed from the front (whole lines) to fit
 * rules.android.recordingLimit.
 */
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
  return 'r' + turn + ' ' + at(indexOf(me.position)) + ' bat ' + Math.round(me.battery) + ' hp ' +
    Math.round(me.health) + ': ' + what;
}
