// Loose material: which to go for next, and whether a pile on a hazard is worth the health.

import { Context, inAHurry, roundsLeft } from './context';
import { siblingCloser } from './sense';

/** Electronics are scarce: loot holding some counts as this many moves nearer. */
const ELECTRONICS_DETOUR = 4;
/** Health worth losing to hazards for each unit of loose material picked up there (a choice). */
const HEALTH_PER_UNIT = 3;
/** Rounds an android expects to keep going when the game has no arrival date (a guess). */
const HORIZON = 100;

/** The loose material to fetch next: the nearest that no sibling with room in its cargo is nearer to, counting electronics as nearer.
 * `idle`: the android has nothing better to do, so health is worth more of it (see worthFetching). */
export function nearestLoot(c: Context, idle = false): number | undefined {
  let best: number | undefined;
  let bestSteps = 0;
  for (const [tile, n, electronics] of c.m.loot) {
    if (!worthFetching(c, tile, n, electronics, idle)) continue;
    const steps = c.nav.steps(tile) - (electronics > 0 ? ELECTRONICS_DETOUR : 0);
    if (best !== undefined && (steps > bestSteps || (steps === bestSteps && tile > best))) continue;
    // An idle android goes anyway: at worst two make the trip, and one of them had nothing to do.
    if (!idle && c.v.siblings.length && siblingCloser(c.v, tile, true)) continue;
    best = tile;
    bestSteps = steps;
  }
  return best;
}

/**
 * Whether loose material is worth going for: not given up on (see main.ts), and if it lies on a
 * hazard, worth the health it costs (a round to step on and a round to collect, on the tile):
 * no more than a few health a unit (any, in a hurry or when the android has nothing better to
 * do: health kept for nothing scores nothing), electronics always worth it, and the
 * android keeps enough health for the rounds it still has to live (rules.android.decayPerRound each).
 */
export function worthFetching(c: Context, tile: number, units: number, electronics: number, idle = false): boolean {
  if (units <= 0 || c.m.banned.some((b) => b[0] === tile)) return false;
  const tenths = c.harm.get(tile);
  if (tenths === undefined || tile === c.v.here) return true;
  const cost = (2 * tenths) / 10;
  const left = roundsLeft();
  const needed = rules.android.decayPerRound * (left === undefined ? HORIZON : left) + 2 * rules.android.failedTurnHealthPenalty;
  // Close to the humans' arrival, health left over when they land is worth nothing.
  return c.v.me.health - cost > needed && (electronics > 0 || idle || inAHurry() || cost <= HEALTH_PER_UNIT * units);
}

