// Loose material: which to go for next, and whether a pile on a hazard is worth the health.

import { Context, roundsLeft } from './context';
import { siblingCloser } from './sense';

/** Electronics are scarce: loot holding some counts as this many moves nearer. */
const ELECTRONICS_DETOUR = 4;
/** Health worth losing to hazards for each unit of loose material picked up there (a choice). */
const HEALTH_PER_UNIT = 3;
/** Rounds an android expects to keep going when the game has no arrival date (a guess). */
const HORIZON = 100;

/** The loose material to fetch next: the nearest that no sibling is nearer to, counting electronics as nearer. */
export function nearestLoot(c: Context): number | undefined {
  let best: number | undefined;
  let bestSteps = 0;
  for (const [tile, n, electronics] of c.m.loot) {
    if (!worthFetching(c, tile, n, electronics)) continue;
    const steps = c.nav.steps(tile) - (electronics > 0 ? ELECTRONICS_DETOUR : 0);
    if (best !== undefined && (steps > bestSteps || (steps === bestSteps && tile > best))) continue;
    if (c.v.siblings.length && siblingCloser(c.v, tile)) continue;
    best = tile;
    bestSteps = steps;
  }
  return best;
}

/**
 * Whether loose material is worth going for: not given up on (see main.ts), and if it lies on a
 * hazard, worth the health it costs (a round to step on and a round to collect, on the tile):
 * no more than a few health a unit, electronics always worth it, and the android keeps enough
 * health for the rounds it still has to live (rules.android.decayPerRound each).
 */
export function worthFetching(c: Context, tile: number, units: number, electronics: number): boolean {
  if (units <= 0 || c.m.banned.some((b) => b[0] === tile)) return false;
  const tenths = c.harm.get(tile);
  if (tenths === undefined || tile === c.v.here) return true;
  const cost = (2 * tenths) / 10;
  const left = roundsLeft();
  const needed = rules.android.decayPerRound * (left === undefined ? HORIZON : left) + 2 * rules.android.failedTurnHealthPenalty;
  return c.v.me.health - cost > needed && (electronics > 0 || cost <= HEALTH_PER_UNIT * units);
}

