// Duties that grow the colony: pick up loose material, build the plan, bank the cargo, and look
// for more (loose material first, then ground never seen).

import { nearest, nearestStore, storeHolding } from './base';
import { Context, Duty, roundsLeft, walk } from './context';
import { article, costOf, covers, describe, extracts, isEmpty, minus, payable, plus, room, total } from './economy';
import { fetch } from './keep';
import { nearestLoot } from './loot';
import { nextBuilding } from './plan';
import { at, distance, indexOf, serial, siblingCloser } from './sense';

/** Loose material this many moves away is picked up on the way (a choice, not a rule). */
const DETOUR = 2;

/** Collect the loose material on this tile. */
export const collectHere: Duty = (c) => {
  const tile = c.v.tiles.get(c.v.here);
  if (!tile || total(tile.scattered) === 0 || room(c.v.me) === 0) return undefined;
  return { action: { type: 'android.collect' }, intent: 'collect ' + describe(tile.scattered) };
};

/** Loose material a step or two away is picked up before anything else takes the android away. */
export const pickUpNearby: Duty = (c) => {
  const loot = nearestLoot(c);
  if (loot === undefined || room(c.v.me) === 0 || c.nav.steps(loot) > DETOUR) return undefined;
  return walk(c, loot, 'pick up what lies at ' + at(loot), loot);
};

/** Finish a construction site of mine: pay what it still owes when that is at hand, build its ticks. */
export const finishSite: Duty = (c) => {
  const site = nearest(c, (k) => !k.complete);
  if (!site) return undefined;
  const what = 'the ' + site.type + ' site at ' + at(site.tile);
  if (isEmpty(site.owed)) {
    if (c.v.here === site.tile) return { action: { type: 'android.continue-construction' }, intent: 'build ' + what };
    return walk(c, site.tile, 'go build ' + what);
  }
  const pay = payable(c.v.me.cargo, site.owed);
  if (pay) {
    if (c.v.here === site.tile) {
      return { action: { type: 'android.continue-construction', resources: pay }, intent: 'pay ' + describe(pay) + ' into ' + what };
    }
    return walk(c, site.tile, 'carry ' + describe(pay) + ' to ' + what);
  }
  const store = storeHolding(c, site.owed);
  return store ? fetch(c, store, site.owed, 'for ' + what) : undefined; // a sibling brings the rest
};

/**
 * Start the next building of the plan once its whole cost is at hand: in my cargo, in a depot
 * (fetched first), or partly in my siblings' cargo. Siblings pool material through the site: the
 * android holding the most of the cost walks to the tile and starts the site once the others
 * stand by with the rest, and they pay it in (finishSite) the next turn.
 */
export const build: Duty = (c) => {
  if (c.m.buildings.some((k) => !k.complete && !isEmpty(k.owed))) return undefined; // one unpaid site at a time
  const plan = nextBuilding(c);
  if (!plan) return undefined;
  const need = costOf(plan.type);
  const what = article(plan.type) + ' at ' + at(plan.tile);
  const mine = payable(c.v.me.cargo, need);
  const short = minus(need, c.v.me.cargo);
  if (!isEmpty(short)) {
    const store = storeHolding(c, short);
    if (store) return fetch(c, store, short, 'for ' + what);
    if (!mine) return undefined; // my siblings hold it all: not my job
    const lead = leader(c, need);
    if (lead !== c.v.me) return walk(c, indexOf(lead.position), 'bring ' + describe(mine) + ' to ' + lead.id + ' for ' + what);
    if (c.v.here === plan.tile && !helpersBeside(c, short, plan.tile)) {
      return { action: { type: 'android.wait' }, intent: 'wait at ' + at(plan.tile) + ' for my siblings to bring ' + describe(short) };
    }
  }
  const pay = mine || {};
  if (c.v.here !== plan.tile) return walk(c, plan.tile, 'carry ' + describe(pay) + ' to ' + what);
  const t = c.v.tiles.get(c.v.here);
  const ground = t && extracts(plan.type) ? groundOf(t, plan.type) : '';
  return {
    action: { type: 'android.start-construction', buildingType: plan.type, resources: pay },
    intent: 'start ' + what + ground + ' with ' + describe(pay),
  };
};

/** The android of mine holding the most of `need` (ties: the older one): it starts a pooled site. */
function leader(c: Context, need: MaterialAmounts): Android {
  let best = c.v.me;
  let most = total(payable(best.cargo, need));
  for (const s of c.v.siblings) {
    const n = total(payable(s.cargo, need));
    if (n > most || (n === most && serial(s.id) < serial(best.id))) {
      best = s;
      most = n;
    }
  }
  return best;
}

/** Whether siblings standing on or next to `tile` carry all of `short` between them. */
function helpersBeside(c: Context, short: MaterialAmounts, tile: number): boolean {
  let carried: MaterialAmounts = {};
  for (const s of c.v.siblings) if (distance(indexOf(s.position), tile) <= 1) carried = plus(carried, s.cargo);
  return covers(carried, short);
}

/** For a harvester: what the ground under it holds, e.g. ' on 3 ore, 2 water'. */
function groundOf(t: Tile, type: BuildingType): string {
  const parts: string[] = [];
  for (const e of rules.buildings[type].extraction) {
    const n = t.composition[e.source] || 0;
    if (n > 0) parts.push(n + ' ' + e.source);
  }
  return parts.length ? ' on ' + parts.join(', ') : '';
}

/** Bank the cargo in the nearest depot I know when it is full, or nothing is left to find. */
export const bank: Duty = (c) => {
  if (isEmpty(c.v.me.cargo)) return undefined;
  if (room(c.v.me) > 0 && (nearestLoot(c) !== undefined || c.unexplored > 0)) return undefined;
  return deposit(c, 'bank');
};

/** With an arrival date: bank the cargo in time, since cargo scores nothing when the humans land. */
export const bankBeforeTheEnd: Duty = (c) => {
  const left = roundsLeft();
  const store = nearestStore(c);
  if (left === undefined || !store || isEmpty(c.v.me.cargo) || left > c.nav.steps(store.tile) + 2) return undefined;
  return deposit(c, 'the humans land in ' + left + ' rounds: bank');
};

function deposit(c: Context, why: string) {
  const store = nearestStore(c);
  if (!store) return undefined;
  const what = describe(c.v.me.cargo);
  if (c.v.here === store.tile) return { action: { type: 'android.deposit' } as Action, intent: why + ' ' + what };
  return walk(c, store.tile, why + ' ' + what + ' at the ' + store.type + ' at ' + at(store.tile));
}

/** Walk to the nearest loose material remembered, electronics (scarce) first. */
export const gather: Duty = (c) => {
  const loot = room(c.v.me) > 0 ? nearestLoot(c) : undefined;
  return loot === undefined ? undefined : walk(c, loot, 'gather at ' + at(loot), loot);
};

/**
 * Walk toward the nearest tile never seen, until the whole map has been seen: loose material
 * and good ground can be anywhere, corners included. Siblings split the map: a tile another
 * android is nearer to is left to it.
 */
export const explore: Duty = (c) => {
  if (c.unexplored === 0) return undefined;
  const unseen = (tile: number): boolean => !c.seen.has(tile);
  const sibling = (tile: number): boolean => c.v.siblings.length > 0 && siblingCloser(c.v, tile);
  let target = c.nav.nearestWhere(unseen, sibling);
  if (target === undefined) {
    // Nothing unseen that a route reaches (beyond hazards, or beyond the search window on a big
    // board): head for the nearest unseen block as the crow flies.
    let bestSteps = Infinity;
    for (const corner of c.seen.unseenCorners()) {
      if (distance(c.v.here, corner) < bestSteps) {
        target = corner;
        bestSteps = distance(c.v.here, corner);
      }
    }
  }
  if (target === undefined) return undefined;
  return walk(c, target, 'explore toward ' + at(target));
};
