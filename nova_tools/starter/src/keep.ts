// Duties that keep what the colony has: a second android, a charged battery, buildings repaired
// and watched, and harvested material moved somewhere no rival can take it.
//
// Why it matters: a rival can salvage my extractors and chargers (rules.salvage.hostileDamage a
// turn), and when one falls everything stored in it spills onto the ground for whoever stands
// there. A repair (rules.salvage.repairAmount health for rules.salvage.repairCost) roughly
// cancels one raider; two androids repairing outlast it. A depot cannot be salvaged by anyone
// else (rules.buildings.depot.salvageableByOthers), so ore and water hauled into it are safe.

import { chargerTiles, nearestStore, storeHolding } from './base';
import { capacityLeft } from './check';
import { raiding } from './conflict';
import { Context, Decision, Duty, roundsLeft, walk } from './context';
import { bagOf, canWithdraw, charges, covers, describe, fill, fullHealth, isEmpty, minus, room, takeable, total } from './economy';
import { Known, storedNow } from './memory';
import { at, distance, indexOf } from './sense';

/** Moves of slack kept in the battery beyond the trip back to a charger... */
const BATTERY_SLACK = 2;
/** ...plus one move for every this many on the way: routes through unseen ground can turn out
 * longer (a hazard discovered on the way is a detour), and arriving with an empty battery is
 * arriving as a wreck. */
const DETOUR_EVERY = 4;
/** Rounds a building stays "threatened" after a rival android was seen beside it (a choice). */
const THREAT_ROUNDS = 10;
/** Androids of mine this many steps from a building under attack count as its defenders (a choice). */
const NEAR = 3;

/** Launch a sibling running this same script, when standing on my charger with room for one. */
export const launchSibling: Duty = (c) => {
  const me = c.v.me;
  const b = c.v.buildingAt.get(c.v.here);
  if (!b || b.ownerId !== me.ownerId || !b.complete || rules.buildings[b.type].androidCapacity <= 0) return undefined;
  if (capacityLeft(c.v) <= 0 || !world.scripts.some((s) => s.id === me.scriptId)) return undefined;
  return { action: { type: 'android.launch', scriptId: me.scriptId }, intent: 'launch a sibling at ' + at(c.v.here) };
};

/** Charge when a full charge fits (or the battery is low); head back to a charger in time. */
export const keepCharged: Duty = (c) => {
  const me = c.v.me;
  let nearest = c.m.home;
  let trip = c.nav.steps(nearest);
  for (const tile of chargerTiles(c)) {
    const steps = c.nav.steps(tile);
    if (steps < trip) {
      nearest = tile;
      trip = steps;
    }
  }
  const move = rules.android.moveBatteryCost;
  const reserve = move * (trip + Math.ceil(trip / DETOUR_EVERY) + 1 + BATTERY_SLACK);
  const low = me.battery - move < reserve;
  const b = c.v.buildingAt.get(c.v.here);
  if (b && b.ownerId === me.ownerId && b.complete && charges(b.type) && me.battery < rules.android.batteryCapacity &&
      (me.battery + rules.buildings[b.type].charge <= rules.android.batteryCapacity || low)) {
    return { action: { type: 'android.charge' }, intent: 'charge' };
  }
  if (low && nearest !== c.v.here) return walk(c, nearest, 'battery low: back to the charger at ' + at(nearest));
  return undefined;
};

/** A rival was beside it lately, and it is a building a rival can salvage (not a depot). */
const threatened = (k: Known): boolean =>
  k.threat !== undefined && turn - k.threat <= THREAT_ROUNDS && rules.buildings[k.type].salvageableByOthers;
const damaged = (k: Known): boolean => k.health < fullHealth(k.type);

/**
 * Repair a damaged building of mine and stand by one a rival is at: fetch repair material from a
 * depot first, repair while it is damaged, and empty its storage into the cargo while a rival is
 * there (what is in the cargo cannot spill). A fight that cannot be won is given up: when the
 * rivals on the tile salvage faster than the androids of mine close by can repair, repair
 * material would only be thrown after the building, so the android rescues what it stores and
 * spends its material elsewhere.
 */
export const defend: Duty = (c) => {
  let target: Known | undefined;
  let targetSteps = 0;
  for (const k of c.m.buildings) {
    // In the raid (conflict.ts) only a damaged building calls an android back.
    if (!k.complete || (!damaged(k) && (raiding() || !threatened(k)))) continue;
    const steps = c.nav.steps(k.tile);
    // A rival passing by is the keeper's to watch; a damaged building calls everyone.
    if (!damaged(k) && !c.keeper && steps > NEAR) continue;
    if (!target || steps < targetSteps) {
      target = k;
      targetSteps = steps;
    }
  }
  if (!target) return undefined;
  const me = c.v.me;
  const tile = target.tile;
  const what = 'the ' + target.type + ' at ' + at(tile);
  const kit = bagOf(rules.salvage.repairCost);
  const canRepair = covers(me.cargo, kit);
  const rivalBeside = c.v.rivals.some((r) => distance(indexOf(r.position), tile) <= 1);
  const winnable = holdable(c, tile);
  const b = c.v.here === tile ? c.v.buildingAt.get(tile) : undefined;
  if (b && damaged(target) && canRepair && winnable) {
    return { action: { type: 'android.repair' }, intent: 'repair ' + what + ' (health ' + Math.round(target.health) + ')' };
  }
  if (winnable && damaged(target) && !canRepair) {
    // Under attack, a cargo full of repair material: every trip to the depot is a round lost.
    const repairs = threatened(target) ? rules.android.cargoCapacity
      : Math.ceil((fullHealth(target.type) - target.health) / rules.salvage.repairAmount);
    const store = storeHolding(c, kit);
    if (store) return fetch(c, store, bagOf(rules.salvage.repairCost, repairs), 'to repair ' + what);
  }
  if (b && rivalBeside && canWithdraw(b.type) && !isEmpty(b.storage) && room(me) > 0) {
    const take = fill(b.storage, room(me));
    if (take) return { action: { type: 'android.withdraw', resources: take }, intent: 'a rival is at ' + what + ': take out ' + describe(take) };
  }
  if (!winnable) return undefined; // given up: what it stored is out, the rest of the colony needs the android
  // Stand by while a rival stands on it (salvage is done from the tile); one that only passes by,
  // or stands guard by its own building next door, is no reason to idle.
  const rivalOn = c.v.rivals.some((r) => indexOf(r.position) === tile);
  if (b && rivalOn && !damaged(target)) return { action: { type: 'android.wait' }, intent: 'guard ' + what + ' from a rival' };
  if (damaged(target) && !canRepair && !rivalBeside) return undefined; // nothing to repair with, and nobody to stand up to
  if (c.v.here === tile) return undefined;
  return walk(c, tile, (damaged(target) ? 'repair ' : 'guard ') + what);
};

/**
 * Whether my androids near `tile` (within a few steps, with repair material or a depot to get
 * it from) repair at least as fast as the rivals standing on it salvage.
 */
function holdable(c: Context, tile: number): boolean {
  let attackers = 0;
  for (const r of c.v.rivals) if (indexOf(r.position) === tile) attackers++;
  if (attackers === 0) return true;
  const kit = bagOf(rules.salvage.repairCost);
  const supplied = !!storeHolding(c, kit);
  let defenders = 0;
  for (const a of [c.v.me, ...c.v.siblings]) {
    if (distance(indexOf(a.position), tile) <= NEAR && (supplied || covers(a.cargo, kit))) defenders++;
  }
  return defenders * rules.salvage.repairAmount >= attackers * rules.salvage.hostileDamage;
}

/**
 * Fetch `want` (as much as the store holds and the cargo fits) from a store of mine: walk there,
 * make room if the cargo is full, withdraw.
 */
export function fetch(c: Context, store: Known, want: MaterialAmounts, why: string): Decision | undefined {
  if (c.v.here !== store.tile) return walk(c, store.tile, 'fetch ' + describe(want) + ' from the ' + store.type + ' at ' + at(store.tile) + ' ' + why);
  const b = c.v.buildingAt.get(c.v.here);
  if (!b) return undefined;
  const take = takeable(b.storage, want, room(c.v.me));
  if (take) return { action: { type: 'android.withdraw', resources: take }, intent: 'take ' + describe(take) + ' ' + why };
  // No room: put back what is not wanted, then take what is.
  const back = minus(c.v.me.cargo, want);
  if (!isEmpty(back) && rules.buildings[b.type].storage.deposit) {
    return { action: { type: 'android.deposit', resources: back }, intent: 'make room: deposit ' + describe(back) };
  }
  return undefined;
}

/**
 * Move what my extractors harvested into a depot, a full cargo at a time: it scores the same
 * there, and nobody else can salvage a depot. The keeper's job; the others join in once the
 * whole map has been seen. Skips a harvester a sibling is already standing by.
 */
export const haul: Duty = (c) => {
  const space = room(c.v.me);
  const store = nearestStore(c);
  if (space === 0 || !store || (!c.keeper && c.unexplored > 0)) return undefined;
  // Stored in a harvester it scores as much as in a depot; in the cargo it scores nothing. So no
  // hauling that could not be banked before the humans land.
  const left = roundsLeft();
  let best: Known | undefined;
  let bestSteps = 0;
  for (const k of c.m.buildings) {
    if (!k.complete || !k.rate || !canWithdraw(k.type) || storedNow(k) < space) continue;
    if (left !== undefined && left <= c.nav.steps(k.tile) + distance(k.tile, store.tile) + 2) continue;
    if (c.v.siblings.some((s) => indexOf(s.position) === k.tile)) continue;
    const steps = c.nav.steps(k.tile);
    if (!best || steps < bestSteps) {
      best = k;
      bestSteps = steps;
    }
  }
  if (!best) return undefined;
  const what = 'the ' + best.type + ' at ' + at(best.tile);
  if (c.v.here !== best.tile) return walk(c, best.tile, 'haul from ' + what);
  const b = c.v.buildingAt.get(c.v.here);
  const take = b && fill(b.storage, space);
  return take ? { action: { type: 'android.withdraw', resources: take }, intent: 'haul ' + describe(take) + ' out of ' + what } : undefined;
};

/**
 * Nothing else to do: stand by the building a raider would most like to take (a rival can
 * salvage it and it holds the most), so the android sees a raid coming and is there to repair.
 * Siblings spread out: a building another android already stands by is left to it.
 */
export const guard: Duty = (c) => {
  let best: Known | undefined;
  let bestValue = -1;
  for (const k of c.m.buildings) {
    if (!k.complete || !rules.buildings[k.type].salvageableByOthers) continue;
    if (k.tile !== c.v.here && c.v.siblings.some((s) => distance(indexOf(s.position), k.tile) <= 1)) continue;
    const value = (threatened(k) ? 1000 : 0) + rules.scoring.buildings[k.type] + total(k.storage) + k.rate;
    if (value > bestValue) {
      best = k;
      bestValue = value;
    }
  }
  if (!best) return undefined;
  const what = 'the ' + best.type + ' at ' + at(best.tile);
  if (c.v.here === best.tile) return { action: { type: 'android.wait' }, intent: 'stand guard at ' + what };
  return walk(c, best.tile, 'go stand guard at ' + what);
};
