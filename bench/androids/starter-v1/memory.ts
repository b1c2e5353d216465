// What this android remembers between turns (its `memory`, at most rules.android.memoryLimit
// characters) and what it tells its player (its `recording`, at most rules.android.recordingLimit
// characters). Both travel with the action: a refused action keeps neither, so the android
// only ever returns actions it has checked.

import { distance } from './nav';
import { at, indexOf, isHazard, View } from './sense';
import { BUILD_ORDER, extracts, harvestWorth, total, units } from './economy';

/** How many harvest spots are remembered (a choice of this script, not a rule). */
const SPOTS_KEPT = 8;
/** How far from home (in steps) a harvesting building may go (a choice of this script, not a rule). */
export const HARVEST_RANGE = 5;

export interface Memory {
  /** Format version: a memory from another script version is ignored. */
  v: number;
  /** The tile of the charger this android calls home. */
  home?: number;
  /** Loose material last seen: [tile, units, electronics]. Sight is not memory: this is. */
  loot: [number, number, number][];
  /** Tiles seen holding acid or radiation. */
  hazards: number[];
  /**
   * The best free, hazard-free tiles seen for the plan's harvesting building: [tile, points a
   * round it would harvest, in hundredths], best first.
   */
  spots: [number, number][];
  /** Steps of BUILD_ORDER (indexes) already completed. */
  built: number[];
  /** Where the plan's next building goes, once chosen, and which step of BUILD_ORDER it is. */
  site?: number;
  step?: number;
  /** What that site still needed when last seen, once it is started. */
  owed?: MaterialAmounts;
  /** Index of the exploration waypoint being walked to. */
  waypoint: number;
  /** What the android was doing last turn, so the recording only logs changes. */
  intent: string;
  /** The last two turns: [tile it stood on, loose-material tile it went for or -1]. */
  trail?: [number, number][];
  /** Loose-material tiles given up on for now: [tile, round until which it is ignored]. */
  banned?: [number, number][];
}

const VERSION = 2;

export function load(text: string): Memory {
  if (text) {
    try {
      const m = JSON.parse(text) as Memory;
      if (m && m.v === VERSION) return m;
    } catch (_) {
      // A memory from something else: start afresh.
    }
  }
  return { v: VERSION, loot: [], hazards: [], spots: [], built: [], waypoint: -1, intent: '' };
}

/** The plan's first building type that harvests its tile, if any. */
export function harvester(): BuildingType | undefined {
  for (const type of BUILD_ORDER) if (extracts(type)) return type;
  return undefined;
}

/** Fold this turn's sight into memory: loose material appears and disappears, hazards stay. */
export function remember(m: Memory, v: View): void {
  const loot = new Map<number, [number, number, number]>();
  for (const l of m.loot) loot.set(l[0], l);
  const hazards = new Set<number>(m.hazards);
  const spots = new Map<number, number>(m.spots);
  const type = harvester();
  for (const t of v.tiles.values()) {
    const i = indexOf(t.position);
    const n = total(t.scattered);
    if (n > 0) loot.set(i, [i, n, units(t.scattered, 'electronics')]);
    else loot.delete(i);
    const hazard = isHazard(t);
    if (hazard) hazards.add(i);
    else hazards.delete(i);
    // Cheap tests first: this runs for every tile in sight, every turn.
    if (type && !hazard && (m.home === undefined || distance(i, m.home) <= HARVEST_RANGE) && !v.buildingAt.has(i)) {
      const points = Math.round(100 * harvestWorth(type, t.composition));
      if (points > 0) spots.set(i, points);
      else spots.delete(i);
    } else {
      spots.delete(i);
    }
  }
  m.loot = Array.from(loot.values());
  m.hazards = Array.from(hazards);
  // Best first; between equals, the one nearer home.
  const home = m.home === undefined ? indexOf(v.me.position) : m.home;
  m.spots = Array.from(spots.entries())
    .sort((a, b) => b[1] - a[1] || distance(a[0], home) - distance(b[0], home) || a[0] - b[0])
    .slice(0, SPOTS_KEPT);
}

/** The memory as text that fits rules.android.memoryLimit, forgetting the least useful first. */
export function save(m: Memory): string {
  const limit = rules.android.memoryLimit;
  let text = JSON.stringify(m);
  while (text.length > limit && (m.loot.length > 0 || m.hazards.length > 0 || m.spots.length > 0)) {
    if (m.spots.length > m.loot.length && m.spots.length > m.hazards.length) m.spots = m.spots.slice(0, m.spots.length >> 1);
    else if (m.hazards.length >= m.loot.length) m.hazards = m.hazards.slice(0, m.hazards.length >> 1);
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
