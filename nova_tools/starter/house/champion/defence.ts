// house:champion's defence: the starter's defence.ts (../../src) does nothing; this one leaves
// decoys, and banks the harvest early once a raider is about.
//
// Decoys. A construction site may be started with nothing paid in (rulebook, Start
// Construction): it costs one turn, and it has a whole building's health
// (rules.buildings[type].health) for a raider to take apart at rules.salvage.hostileDamage a
// turn, for nothing, since salvage returns a share of what was invested. So the androids leave
// unpaid sites around the base while they explore, a few steps from home, where a raider coming
// for the extractors meets them first: every round it spends on one is a round the extractors
// keep harvesting.
//
// The depot earlier. A fallen extractor spills all it harvested for the raider to carry home;
// a depot cannot be salvaged by a rival (rules.buildings.depot.salvageableByOthers). Once a
// decoy is salvaged there is a raider about, and the depot moves up in the build order, right
// after the first extractor, so the keeper hauls the harvest into it (keep.ts, haul).
import { Context, Duty } from './context';
import { stores } from './economy';
import { Memory } from './memory';
import { at, distance, isHazard, View } from './sense';

/** What a decoy is: a type a raider salvages (rules.buildings[type].salvageableByOthers) and
 * this android never builds for real (plan.ts, BUILD_ORDER), so its own sites of it are decoys. */
const DECOY: BuildingType = 'charger';
/** Decoys an android leaves in a game, at most (a choice). */
const DECOYS = 30;
/** How far from home a decoy goes, in steps: off the base, on a raider's way in (a choice). */
const NEAR = 2;
const FAR = 8;
/** Decoys and buildings are kept this many steps apart, so each costs a raider its own walk. */
const APART = 2;

/** A decoy of mine: an unpaid site of the decoy type. */
const decoy = (b: { type: BuildingType; complete: boolean }): boolean => b.type === DECOY && !b.complete;

/** Leave a decoy where the android stands, when it is a free tile at the right distance. */
export const prepare: Duty = (c: Context) => {
  const m = c.m;
  const placed = m.decoys || [];
  const here = c.v.here;
  if (placed.length >= DECOYS || c.v.buildingAt.has(here) || here === m.home) return undefined;
  const t = c.v.tiles.get(here);
  const d = distance(here, m.home);
  if (!t || isHazard(t) || d < NEAR || d > FAR) return undefined;
  // Not on good ground: that is for the extractors (plan.ts), and a site there would take it.
  if (m.spots.some((s) => s[0] === here) || (m.plan && m.plan[0] === here)) return undefined;
  if (placed.some((k) => distance(k, here) < APART) || m.buildings.some((k) => distance(k.tile, here) < APART)) return undefined;
  m.decoys = [...placed, here];
  return { action: { type: 'android.start-construction', buildingType: DECOY, resources: {} }, intent: 'leave a decoy site at ' + at(here) };
};

/**
 * Keep decoys out of the buildings memory (they are not to be finished, repaired or guarded), and
 * note the first round one (or a building of mine) is found salvaged: a raider is about.
 */
export function watch(m: Memory, v: View): void {
  m.buildings = m.buildings.filter((k) => !decoy(k));
  if (m.raidedAt !== undefined) return;
  if (m.hostile.length > 0) m.raidedAt = turn; // a building of mine was salvaged (memory.ts)
  for (const tile of m.decoys || []) {
    if (!v.tiles.has(tile)) continue;
    const b = v.buildingAt.get(tile);
    if (!b || b.ownerId !== v.me.ownerId || !decoy(b) || b.health < rules.buildings[b.type].health) {
      m.raidedAt = turn;
      return;
    }
  }
}

/** Once raided, the first depot of the order comes right after the first extractor. */
export function buildOrder(order: BuildingType[], m: Memory): BuildingType[] {
  if (m.raidedAt === undefined) return order;
  const depot = order.findIndex((type) => stores(type));
  const first = order.findIndex((type) => !stores(type));
  if (depot < 0 || depot <= first + 1) return order;
  const out = order.slice();
  out.splice(depot, 1);
  out.splice(first + 1, 0, order[depot]);
  return out;
}
