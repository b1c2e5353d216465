// My base: the buildings this android knows of (memory.buildings, kept up to date when in sight),
// and questions about them: where is the nearest depot, what is stored, what can be fetched.

import { Context, inAHurry, roundsLeft } from './context';
import { canWithdraw, charges, covers, plus, stores } from './economy';
import { Known } from './memory';
import { distance, indexOf } from './sense';

/** Rounds a pooled site needs beyond the sibling's walk to it: paying in, and a depot's ticks (a guess). */
const REACH = 3;

/** The known building nearest to the android (by route) that passes `accepts`. */
export function nearest(c: Context, accepts: (k: Known) => boolean): Known | undefined {
  let best: Known | undefined;
  let bestSteps = 0;
  for (const k of c.m.buildings) {
    if (!accepts(k)) continue;
    const steps = c.nav.steps(k.tile);
    if (!best || steps < bestSteps) {
      best = k;
      bestSteps = steps;
    }
  }
  return best;
}

/** The nearest completed building I can deposit into: where cargo is banked, and safe. */
export const nearestStore = (c: Context): Known | undefined => nearest(c, (k) => k.complete && stores(k.type));

/** The nearest completed building I can withdraw `need` from, all of it. */
export function storeHolding(c: Context, need: MaterialAmounts): Known | undefined {
  return nearest(c, (k) => k.complete && stores(k.type) && canWithdraw(k.type) && covers(k.storage, need));
}

/** Whether I know of a completed building to bank in. */
export const hasStore = (c: Context): boolean => c.m.buildings.some((k) => k.complete && stores(k.type));

/** What my androids could spend: their cargo (siblings' cargo is in sight, like the siblings)
 * plus what my depots held when last seen. In a hurry, only the siblings near enough to bring it
 * in time count. */
export function stock(c: Context): MaterialAmounts {
  let total = c.v.me.cargo || {};
  const left = roundsLeft();
  for (const s of c.v.siblings) {
    if (inAHurry() && left !== undefined && distance(indexOf(s.position), c.v.here) + REACH > left) continue;
    total = plus(total, s.cargo);
  }
  for (const k of c.m.buildings) if (k.complete && stores(k.type) && canWithdraw(k.type)) total = plus(total, k.storage);
  return total;
}

/** The tiles of the chargers I know: home, plus any I built. */
export function chargerTiles(c: Context): number[] {
  const tiles = [c.m.home];
  for (const k of c.m.buildings) if (k.complete && charges(k.type)) tiles.push(k.tile);
  return tiles;
}
