// What this android remembers between turns: its `memory`, at most rules.android.memoryLimit
// characters (counted as JavaScript counts `.length`, in UTF-16 code units; everything written
// here is plain ASCII). Sight is not memory: a tile out of range drops out of `world`, so
// whatever the android wants to know later (the map, its buildings, the depots) it writes here.

import { harvestWorth, total } from './economy';
import { SeenMap } from './seen';
import { distance, indexOf, View } from './sense';

/** How many harvest spots are remembered (a choice of this script, not a rule). */
const SPOTS_KEPT = 8;
/** Rivals this many steps from a building of mine found salvaged are taken for the raiders (a choice). */
const SUSPECT_RANGE = 3;
/** How far from home (in steps) an extractor may go (a choice of this script, not a rule). */
export const HARVEST_RANGE = 5;

/** One of my buildings or construction sites, as last seen. */
export interface Known {
  tile: number;
  type: BuildingType;
  complete: boolean;
  health: number;
  storage: MaterialAmounts;
  /** What a construction site still needs. */
  owed: MaterialAmounts;
  /** Units it harvests a round (rules.buildings[type].extraction on its ground). */
  rate: number;
  /** The round it was last seen. */
  seenAt: number;
  /** The last round a rival android was seen on it or next to it. */
  threat?: number;
}

export interface Memory {
  /** Format version: a memory written by another script version is ignored. */
  v: number;
  /** The tile of the charger this android calls home. */
  home: number;
  /** Every tile seen at least once, five to a character (see `seenMap`). */
  seen: string;
  /** Loose material last seen: [tile, units, electronics]. */
  loot: [number, number, number][];
  /**
   * Tiles seen holding acid or radiation: [tile, health an android ending a round there loses,
   * in tenths]. Mild ones a route may cross (see `MILD`).
   */
  hazards: [number, number][];
  /**
   * The best free, hazard-free tiles seen near home for an extractor: [tile, points a round it
   * would harvest, in hundredths], best first.
   */
  spots: [number, number][];
  /** My buildings and sites, so it can bank, haul and repair out of sight of them. */
  buildings: Known[];
  /** Other players seen, so the lists below can name them by a short number. */
  rivals: string[];
  /** Rivals (indexes into `rivals`) seen salvaging a building of mine. */
  hostile: number[];
  /** Rivals' buildings that can be salvaged, last seen: [tile, index into `rivals`]. */
  prey: [number, number][];
  /** Rivals' homes (initial chargers), where their other buildings are likely near: [tile, index]. */
  dens: [number, number][];
  /** No looking around raiders' homes before this round (conflict.ts). */
  calm?: number;
  /** The tile chosen for the next building, and its type. */
  plan?: [number, BuildingType];
  /** What the android was doing last turn, so the recording only logs changes. */
  intent: string;
  /** The last two turns: [tile it stood on, loose-material tile it went for or -1]. */
  trail: [number, number][];
  /** Loose-material tiles given up on for now: [tile, round until which it is ignored]. */
  banned: [number, number][];
  /** What defence.ts keeps (house:champion's: its decoy sites, and when one was first salvaged). */
  decoys?: number[];
  raidedAt?: number;
}

const VERSION = 4;

export function load(text: string, v: View): Memory {
  if (text) {
    try {
      const m = JSON.parse(text) as Memory;
      if (m && m.v === VERSION) return m;
    } catch (_) {
      // A memory from something else: start afresh.
    }
  }
  // Home is the initial charger in sight (a new android is launched on one), else where it stands.
  const initial = v.own.find((b) => b.initial);
  return {
    v: VERSION, home: initial ? indexOf(initial.position) : v.here, seen: '', loot: [], hazards: [], spots: [],
    buildings: [], rivals: [], hostile: [], prey: [], dens: [], intent: '', trail: [], banned: [],
  };
}

/**
 * Fold this turn's sight into memory: what lies loose, where the hazards and the good ground are,
 * my buildings and my rivals'. Returns the seen map, updated. This runs every turn over every
 * tile in sight, so the loop is written out plainly: a turn should spend no fuel ticks.
 */
export function remember(m: Memory, v: View, harvester: BuildingType | undefined): SeenMap {
  const seen = new SeenMap(m.seen);
  const loot = new Map<number, [number, number, number]>();
  for (const l of m.loot) loot.set(l[0], l);
  const hazards = new Map<number, number>(m.hazards);
  const spots = new Map<number, number>(m.spots);
  const prey = new Map<number, number>(m.prey);
  const W = rules.world.width;
  const homeX = m.home % W;
  const homeY = (m.home - homeX) / W;
  const tiles = world.tiles;
  for (let k = 0; k < tiles.length; k++) {
    const t = tiles[k];
    const x = t.position.x;
    const y = t.position.y;
    const i = y * W + x;
    seen.mark(i);
    let n = 0;
    for (const name in t.scattered) n += t.scattered[name as Material] || 0;
    if (n > 0) loot.set(i, [i, n, t.scattered.electronics || 0]);
    else if (loot.has(i)) loot.delete(i);
    const ground = t.composition;
    const hazard = (ground.acid || 0) > 0 || (ground.radiation || 0) > 0;
    if (hazard) hazards.set(i, Math.round(10 * harm(t)));
    else if (hazards.has(i)) hazards.delete(i);
    const b = v.buildingAt.get(i);
    if (harvester && !hazard && !b && Math.abs(x - homeX) + Math.abs(y - homeY) <= HARVEST_RANGE) {
      const points = Math.round(100 * harvestWorth(harvester, ground));
      if (points > 0) spots.set(i, points);
      else spots.delete(i);
    } else if (spots.has(i)) {
      spots.delete(i);
    }
    // Rivals' buildings that could be salvaged, and rivals' homes.
    if (b && b.ownerId !== v.me.ownerId) {
      if (b.initial) {
        if (!m.dens.some((d) => d[0] === i)) m.dens.push([i, rivalIndex(m, b.ownerId)]);
      } else if (rules.buildings[b.type].salvageableByOthers) {
        prey.set(i, rivalIndex(m, b.ownerId));
      }
    } else if (prey.has(i)) {
      prey.delete(i);
    }
  }
  m.seen = seen.text();
  m.loot = Array.from(loot.values());
  m.hazards = Array.from(hazards.entries());
  m.prey = Array.from(prey.entries());
  // Best first; between equals, the one nearer home.
  m.spots = Array.from(spots.entries())
    .sort((a, b) => b[1] - a[1] || distance(a[0], m.home) - distance(b[0], m.home) || a[0] - b[0])
    .slice(0, SPOTS_KEPT);
  rememberBuildings(m, v);
  return seen;
}

/** The short number memory uses for a rival player. */
export function rivalIndex(m: Memory, ownerId: string): number {
  let i = m.rivals.indexOf(ownerId);
  if (i < 0) i = m.rivals.push(ownerId) - 1;
  return i;
}

/**
 * My buildings: add or refresh those in sight, forget those seen gone, note rivals beside them.
 * Only salvage takes health off a building, and this script never salvages its own, so a
 * building found with less health than before, or gone, was salvaged by a rival: the rivals
 * in sight near it (or the only rival known, when none is in sight) are marked hostile.
 */
function rememberBuildings(m: Memory, v: View): void {
  const kept: Known[] = [];
  for (const k of m.buildings) {
    if (!v.tiles.has(k.tile)) {
      kept.push(k); // out of sight: keep what was known
      continue;
    }
    const now = v.buildingAt.get(k.tile);
    if (now && now.ownerId === v.me.ownerId && now.health >= k.health) continue;
    let blamed = false;
    for (const r of v.rivals) {
      if (distance(indexOf(r.position), k.tile) > SUSPECT_RANGE) continue;
      const i = rivalIndex(m, r.ownerId);
      if (m.hostile.indexOf(i) < 0) m.hostile.push(i);
      blamed = true;
    }
    if (!blamed && m.rivals.length === 1 && m.hostile.length === 0) m.hostile.push(0);
  }
  for (const b of v.own) {
    if (b.initial) continue; // home is remembered on its own; nobody can salvage it
    const tile = indexOf(b.position);
    const before = m.buildings.find((k) => k.tile === tile);
    const known: Known = {
      tile, type: b.type, complete: b.complete, health: b.health, storage: b.storage, owed: b.owed,
      rate: harvestUnits(b.type, v.tiles.get(tile)), seenAt: turn,
    };
    if (before && before.threat !== undefined) known.threat = before.threat;
    for (const r of v.rivals) if (distance(indexOf(r.position), tile) <= 1) known.threat = turn;
    kept.push(known);
  }
  m.buildings = kept;
}

/** Health an android ending a round on this tile loses to its acid and radiation. */
export function harm(t: Tile): number {
  return (t.composition.acid || 0) * rules.android.acidDamagePerPoint +
    (t.composition.radiation || 0) * rules.android.radiationDamagePerPoint;
}

/**
 * Whether a hazard is mild enough for a route to cross: ending a round on it costs at most a
 * quarter of a failed turn's health (rules.android.failedTurnHealthPenalty), e.g. one point of
 * acid. A wall of hazards is often a few such tiles, and walking around it can take ten rounds.
 */
export const mild = (tenths: number): boolean => tenths <= (10 * rules.android.failedTurnHealthPenalty) / 4;

/** Units a building of `type` harvests from a tile each round end. */
function harvestUnits(type: BuildingType, t: Tile | undefined): number {
  let n = 0;
  if (t) for (const e of rules.buildings[type].extraction) n += Math.min(e.amount, t.composition[e.source] || 0);
  return n;
}

/** Units a building of mine probably stores now: what it held when last seen, plus its harvest since. */
export function storedNow(k: Known): number {
  return total(k.storage) + k.rate * (turn - k.seenAt);
}

/** The memory as text that fits rules.android.memoryLimit, forgetting the least useful first. */
export function save(m: Memory): string {
  const limit = rules.android.memoryLimit;
  let text = JSON.stringify(m);
  // What is easy to see again goes first: far loot, then spots, then hazards.
  while (text.length > limit && (m.loot.length > 0 || m.spots.length > 0 || m.hazards.length > 0 || m.trail.length > 0)) {
    if (m.loot.length > 0) m.loot = m.loot.slice(0, m.loot.length >> 1);
    else if (m.spots.length > 0) m.spots = m.spots.slice(0, m.spots.length >> 1);
    else if (m.hazards.length > 0) m.hazards = m.hazards.slice(0, m.hazards.length >> 1);
    else m.trail = m.banned = [];
    text = JSON.stringify(m);
  }
  return text.length <= limit ? text : '';
}
