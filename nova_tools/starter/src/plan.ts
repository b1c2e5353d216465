// What to build next, where, and whether it still pays. A plan, not a rule: edit BUILD_ORDER.

import { hasStore, stock } from './base';
import { Context, inAHurry, roundsLeft } from './context';
import { buildOrder } from './defence';
import { costOf, covers, extracts, harvestWorth, minus, room, stores, total, worth } from './economy';
import { HARVEST_RANGE } from './memory';
import { distance, isHazard, xOf, yOf } from './sense';
import { onMap } from './nav';
import { worthFetching } from './loot';

/**
 * What the android builds, in order. The extractor is where the points come from: once complete
 * it harvests its tile's ore and water into its own storage every round end
 * (rules.buildings.extractor.extraction), and stored material scores (rules.scoring.materials)
 * there as well as in a depot. So extractors come first: each round one is not running is
 * harvest lost for good. The depot is where material is banked: it scores what it holds, and
 * nobody else can salvage it (rules.buildings.depot.salvageableByOthers). Material left over
 * after the plan is banked.
 */
export const BUILD_ORDER: BuildingType[] = ['extractor', 'extractor', 'extractor', 'depot'];

/** How far from home a building that does not harvest may go (a choice, not a rule). */
const NEAR_HOME = 2;
/** Rounds a harvester is expected to run when the game has no arrival date (a guess, not a rule). */
const HORIZON = 100;

export interface Plan {
  type: BuildingType;
  tile: number;
}

/** The first type of BUILD_ORDER that harvests, whose ground the memory keeps track of. */
export function harvester(): BuildingType | undefined {
  for (const type of BUILD_ORDER) if (extracts(type)) return type;
  return undefined;
}

/**
 * The next building to start and where, or undefined when nothing can start yet. A building
 * starts only with its whole cost at hand (in the cargo and my depots), so a site is never left
 * half-paid. A step still short of material keeps what it already has (the extractor its
 * electronics) while the rest fits in the cargo and may still turn up (part of the map is unseen,
 * or enough loose material is known), and lets a later step go first with the remainder; close
 * to the humans' arrival (inAHurry) nothing waits.
 */
export function nextBuilding(c: Context): Plan | undefined {
  const built = new Map<BuildingType, number>();
  for (const k of c.m.buildings) built.set(k.type, (built.get(k.type) || 0) + 1);
  const nth = new Map<BuildingType, number>();
  let left = stock(c);
  const hurried = inAHurry();
  for (const type of buildOrder(BUILD_ORDER, c.m)) {
    const k = (nth.get(type) || 0) + 1;
    nth.set(type, k);
    if ((built.get(type) || 0) >= k) continue;
    const cost = costOf(type);
    if (covers(left, cost)) {
      const tile = chooseTile(c, type);
      if (tile !== undefined && pays(c, type, tile)) {
        c.m.plan = [tile, type];
        return { type, tile };
      }
      continue;
    }
    const short = minus(cost, left);
    let space = room(c.v.me);
    for (const s of c.v.siblings) space += room(s);
    const waitFor = !hurried && total(short) < total(cost) && total(short) <= space && (c.unexplored > 0 || lootCovers(c, short));
    if (waitFor) left = minus(left, cost);
  }
  c.m.plan = undefined;
  return undefined;
}

/** Whether the loose material remembered, that is worth fetching, adds up to `need` (pods hold metal and electronics). */
function lootCovers(c: Context, need: MaterialAmounts): boolean {
  let units = 0;
  let electronics = 0;
  for (const [tile, n, e] of c.m.loot) {
    if (!worthFetching(c, tile, n, e)) continue;
    units += n;
    electronics += e;
  }
  return units >= total(need) && electronics >= (need.electronics || 0);
}

/**
 * Whether a building started now still pays before the humans land. It has to be finished in
 * time (the walk there and its rules.buildings[type].ticks), and then its points plus what it
 * harvests in the rounds left must beat banking its cost instead. Without a depot there is no
 * banking, so anything that scores pays, and the first storage most of all: it is what lets the
 * cargo score. With no arrival date every step of the plan pays.
 */
function pays(c: Context, type: BuildingType, tile: number): boolean {
  const left = roundsLeft();
  if (left === undefined) return true;
  const working = left - c.nav.steps(tile) - rules.buildings[type].ticks - 1;
  if (working <= 0) return false;
  if (!hasStore(c)) return stores(type) || rules.scoring.buildings[type] > 0;
  return rules.scoring.buildings[type] + harvestPerRound(c, type) * working > worth(costOf(type));
}

/** What the best known ground would give a round to a harvester of this type (0 for others). */
function harvestPerRound(c: Context, type: BuildingType): number {
  if (!extracts(type)) return 0;
  const best = c.m.spots[0];
  return best ? best[1] / 100 : 0;
}

/** Rounds a harvester is expected to run: to the arrival date if there is one. */
function horizon(): number {
  const left = roundsLeft();
  return left === undefined ? HORIZON : Math.max(1, left);
}

function chooseTile(c: Context, type: BuildingType): number | undefined {
  // Keep the tile already chosen while it is still free: plans that change every turn walk in circles.
  const chosen = c.m.plan;
  if (chosen && chosen[1] === type && free(c, chosen[0]) && (!extracts(type) || c.m.spots.some((s) => s[0] === chosen[0]))) {
    return chosen[0];
  }
  if (extracts(type)) return bestSpot(c, type);
  // In a hurry, a depot goes where the android stands: the walk is rounds not banked.
  if (inAHurry()) {
    const near = c.v.here !== c.m.home && free(c, c.v.here) ? c.v.here : freeNear(c, c.v.here, NEAR_HOME);
    if (near !== undefined) return near;
  }
  // A depot goes beside my first harvester, or the ground chosen for it (hauling is then one
  // step), else near home.
  const harvest = harvester();
  const built = c.m.buildings.find((k) => extracts(k.type));
  const anchor = built ? built.tile : harvest !== undefined ? bestSpot(c, harvest) : undefined;
  if (stores(type) && anchor !== undefined) {
    const beside = freeNear(c, anchor, 1);
    if (beside !== undefined) return beside;
  }
  return freeNear(c, c.m.home, NEAR_HOME);
}

/** Known free: seen, no hazard, no building of mine remembered there, none in sight. */
function free(c: Context, tile: number): boolean {
  if (c.v.buildingAt.has(tile) || tile === c.m.home || c.m.buildings.some((k) => k.tile === tile)) return false;
  if (c.harm.has(tile) || !c.seen.has(tile)) return false;
  return !isHazard(c.v.tiles.get(tile));
}

/** The remembered spot where a harvester would yield the most over the rounds left, counting the
 * trips a farther one costs; undefined when none is known and reachable. */
function bestSpot(c: Context, type: BuildingType): number | undefined {
  // Keep the base compact: a building no android of mine can see is raided unseen (buildings do
  // not see), so later ones go where the keeper, by the depot, sees them (rules.android.sight),
  // if there is good ground there.
  const depot = c.m.buildings.find((k) => stores(k.type));
  const sight = rules.android.sight ? rules.android.sight.range : 0;
  const watched = (tile: number): boolean => !depot || distance(tile, depot.tile) <= sight;
  const near = c.m.spots.some(([tile]) => watched(tile) && free(c, tile));
  let best: number | undefined;
  let bestValue = 0;
  for (const [tile, points] of c.m.spots) {
    if (!free(c, tile) || !c.nav.reachable(tile) || (near && !watched(tile))) continue;
    const d = distance(tile, c.m.home);
    // Not on a rival's doorstep: their androids pass by all the time.
    if (c.m.dens.some((den) => distance(tile, den[0]) < d)) continue;
    const t = c.v.tiles.get(tile);
    // What it yields a round, read afresh when in sight (the remembered value otherwise).
    const perRound = t ? harvestWorth(type, t.composition) : points / 100;
    // The rounds it would run: in a hurry, from when this android could have it built (the walk
    // from here and its ticks); otherwise the rounds left less the trips a farther one costs.
    const running = inAHurry() ? horizon() - c.nav.steps(tile) - rules.buildings[type].ticks - 1 : Math.max(1, horizon() - 2 * d);
    const value = perRound * running;
    if (value > bestValue) {
      best = tile;
      bestValue = value;
    }
  }
  return best;
}

/** The closest known free tile within `range` of `centre` (ties: north first, then west). */
function freeNear(c: Context, centre: number, range: number): number | undefined {
  for (let r = 1; r <= range; r++) {
    for (let dy = -r; dy <= r; dy++) {
      const dx = r - Math.abs(dy);
      for (const x of dx === 0 ? [xOf(centre)] : [xOf(centre) - dx, xOf(centre) + dx]) {
        const y = yOf(centre) + dy;
        if (!onMap(x, y)) continue;
        const i = y * rules.world.width + x;
        if (free(c, i)) return i;
      }
    }
  }
  return undefined;
}
