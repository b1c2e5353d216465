// The starter "factory builder" android.
//
// Each turn, in order of priority, it:
//   1. launches a sibling when it stands on its own charger and the chargers have room;
//   2. charges when it stands on its own charger and a full charge would not be wasted;
//   3. heads back to a charger when its battery would not last the trip back;
//   4. collects loose material on its tile, and picks up what lies a step or two away;
//   5. works on the build plan (BUILD_ORDER: an extractor on the best ore/water tile near home,
//      a depot, a charger, a second extractor): gathers the cost, fetches it from the depot,
//      pays the site, and builds the ticks once the site is paid;
//   6. deposits its cargo into the depot when full or when nothing is left to gather;
//   7. walks to the nearest loose material it has seen (electronics first), avoiding hazards;
//   8. explores, and otherwise waits.
// Every number comes from `rules`, and every action is checked first, because a refused action
// costs rules.android.failedTurnHealthPenalty health.

import {
  acceptsDeposits, allowsWithdrawals, BUILD_ORDER, costOf, covers, describe, extracts, harvestWorth, holdsAndroids, isEmpty,
  minus, payable, plus, room, someOfEach, surplus, total, withdrawable,
} from './economy';
import { HARVEST_RANGE, load, logLine, Memory, note, remember, save } from './memory';
import { distance, neighbour, onMap, Paths } from './nav';
import { at, chargers, indexOf, isHazard, isMine, look, spareCapacity, View, xOf, yOf } from './sense';

/** How far from home the plan's buildings may go (a choice of this script, not a rule). */
const NEAR_HOME = 2;
/** Moves of slack kept in the battery beyond the trip back to a charger... */
const BATTERY_SLACK = 2;
/** ...plus one move for every this many on the way: routes through unseen ground can turn out
 * longer (a hazard discovered on the way is a detour), and arriving with an empty battery is
 * arriving as a wreck. */
const DETOUR_EVERY = 4;
/** Loose material this many moves away is picked up on the way (a choice, not a rule). */
const DETOUR = 2;
/** Electronics are scarce: loot holding some counts as this many moves nearer. */
const ELECTRONICS_DETOUR = 4;
/** Rounds a harvester is expected to run when the game has no arrival date (a guess, not a rule). */
const HORIZON = 60;
/** Rounds a loose-material tile is ignored after the android caught itself pacing (a choice). */
const GIVE_UP_ROUNDS = 25;

interface Decision {
  action: Action;
  /** Logged when it differs from last turn's. */
  intent: string;
  /** The loose-material tile this turn heads for, if any. */
  goal?: number;
}

const turnFunction: AndroidTurn = () => {
  const v = look();
  if (!v) return { type: 'android.wait' };
  const m = load(v.me.memory);
  remember(m, v);
  giveUpWhenPacing(m, indexOf(v.me.position));
  const d = decide(v, m);
  const trail = m.trail || [];
  m.trail = [...trail.slice(-1), [indexOf(v.me.position), d.goal === undefined ? -1 : d.goal]];
  const action = d.action;
  if (d.intent !== m.intent) action.recording = note(v.me.recording, logLine(v, d.intent));
  m.intent = d.intent;
  action.memory = save(m);
  return action;
};
export default turnFunction;

/**
 * Back on the tile it stood on two turns ago, after a move: two plans are taking turns (one heads
 * for loose material, the other walks away from it, typically when hazards make the route
 * differ from the two tiles). Give up on that material for a while so one plan can finish.
 */
function giveUpWhenPacing(m: Memory, here: number): void {
  const banned = (m.banned || []).filter((b) => b[1] >= turn);
  const trail = m.trail || [];
  if (trail.length === 2 && trail[0][0] === here && trail[1][0] !== here) {
    for (const [, goal] of trail) {
      if (goal >= 0 && !banned.some((b) => b[0] === goal)) banned.push([goal, turn + GIVE_UP_ROUNDS]);
    }
  }
  m.banned = banned;
}

function decide(v: View, m: Memory): Decision {
  const me = v.me;
  const here = indexOf(me.position);
  const building = v.buildingAt.get(here);
  const mine = isMine(v, building) && building.complete ? building : undefined;
  const blocked = new Uint8Array(rules.world.width * rules.world.height);
  for (const i of m.hazards) blocked[i] = 1;
  const nav = new Navigator(v, here, blocked);

  // Home: the charger this android was launched on, remembered for when it is out of sight.
  if (m.home === undefined) {
    const initial = v.own.find((b) => b.initial);
    m.home = initial ? indexOf(initial.position) : here;
  }

  // 1. Launch a sibling running this same script.
  if (mine && holdsAndroids(mine) && spareCapacity(v) > 0 && world.scripts.some((s) => s.id === me.scriptId)) {
    return { action: { type: 'android.launch', scriptId: me.scriptId }, intent: 'launch a sibling at ' + at(here) };
  }

  // 2. Charge when a full charge fits (or the battery is low).
  const capacity = rules.android.batteryCapacity;
  const nearest = nearestCharger(v, m, nav);
  const trip = nearest ? nearest.steps : 0;
  const reserve = rules.android.moveBatteryCost * (trip + Math.ceil(trip / DETOUR_EVERY) + 1 + BATTERY_SLACK);
  const low = me.battery - rules.android.moveBatteryCost < reserve;
  if (mine && rules.buildings[mine.type].charge > 0 && me.battery < capacity &&
      (me.battery + rules.buildings[mine.type].charge <= capacity || low)) {
    return { action: { type: 'android.charge' }, intent: 'charge' };
  }

  // 3. Go back to a charger while the battery still covers the trip.
  if (low && nearest && nearest.tile !== here) {
    const step = nav.go(nearest.tile);
    if (step) return { action: step, intent: 'battery low: back to the charger at ' + at(nearest.tile) };
  }

  // 4. Collect what lies here.
  const tile = v.tiles.get(here);
  if (tile && total(tile.scattered) > 0 && room(me) > 0) {
    return { action: { type: 'android.collect' }, intent: 'collect ' + describe(tile.scattered) };
  }

  // 4b. Loose material a step or two away is picked up before anything else takes the android away.
  const loot = nearestLoot(v, m, nav);
  if (loot !== undefined && room(me) > 0 && nav.steps(loot) <= DETOUR) {
    const step = nav.go(loot);
    if (step) return { action: step, intent: 'gather at ' + at(loot), goal: loot };
  }

  // 5. The build plan.
  const plan = buildPlan(v, m, nav);
  if (plan) {
    const started = !!plan.site || plan.owed !== undefined;
    const need = plan.site ? plan.site.owed : plan.owed || costOf(plan.type);
    const what = started ? 'the ' + plan.type + ' at ' + at(plan.tile) : article(plan.type) + ' at ' + at(plan.tile);
    if (started && isEmpty(need) && (!plan.site || plan.site.remainingTicks > 0)) {
      if (here === plan.tile) {
        return { action: { type: 'android.continue-construction' }, intent: 'build the ' + plan.type + ' at ' + at(here) };
      }
      const step = nav.go(plan.tile);
      if (step) return { action: step, intent: 'go build the ' + plan.type + ' at ' + at(plan.tile) };
    }
    // Fetch what the cargo lacks from storage first, so that one trip carries the whole cost.
    const short = minus(need, me.cargo);
    const store = isEmpty(short) ? undefined : ownStore(v, (b) => allowsWithdrawals(b) && !!withdrawable(b.storage, short, Infinity));
    if (store) {
      const take = withdrawable(store.storage, short, room(me));
      const back = take ? undefined : surplus(me.cargo, need);
      if (indexOf(store.position) === here) {
        if (take) return { action: { type: 'android.withdraw', resources: take }, intent: 'take ' + describe(take) + ' for the ' + plan.type };
        // No room: put back what the plan does not need, then take what it does.
        if (back && acceptsDeposits(store)) {
          return { action: { type: 'android.deposit', resources: back }, intent: 'make room: deposit ' + describe(back) };
        }
      } else if (take || (back && acceptsDeposits(store))) {
        const step = nav.go(indexOf(store.position));
        if (step) return { action: step, intent: 'fetch ' + describe(take || short) + ' from the ' + store.type + ' for ' + what };
      }
    }
    const pay = payable(me.cargo, need);
    // A new site starts only with its whole cost in hand (or a full cargo of it), so no material
    // sits unscored in a half-paid site; before there is any storage, a first payment will do.
    const ready = !!pay && (started || !hasStore(v, m) || covers(me.cargo, need) || total(pay) >= rules.android.cargoCapacity);
    if (pay && ready) {
      if (here === plan.tile) {
        if (plan.site) {
          return {
            action: { type: 'android.continue-construction', resources: pay },
            intent: 'pay ' + describe(pay) + ' into the ' + plan.type + ' site',
          };
        }
        if (!v.buildingAt.has(here)) {
          return {
            action: { type: 'android.start-construction', buildingType: plan.type, resources: pay },
            intent: 'start ' + what + onWhat(v, plan) + ' with ' + describe(pay),
          };
        }
      } else {
        const step = nav.go(plan.tile);
        if (step) return { action: step, intent: 'carry ' + describe(pay) + ' to ' + what };
      }
    }
  }

  // 6. Bank the cargo when full, or when nothing is left to gather.
  if (total(me.cargo) > 0 && (room(me) === 0 || loot === undefined)) {
    const store = ownStore(v, acceptsDeposits);
    if (store) {
      if (indexOf(store.position) === here) {
        return { action: { type: 'android.deposit' }, intent: 'deposit ' + describe(me.cargo) };
      }
      const step = nav.go(indexOf(store.position));
      if (step) return { action: step, intent: 'bring ' + describe(me.cargo) + ' to the ' + store.type };
    }
  }

  // 7. Gather.
  if (loot !== undefined && room(me) > 0) {
    const step = nav.go(loot);
    if (step) return { action: step, intent: 'gather at ' + at(loot), goal: loot };
  }

  // 8. Explore toward waypoints spread over the board; each android starts at a different one.
  const target = waypoint(m, here);
  if (target !== undefined) {
    const step = nav.go(target);
    if (step) return { action: step, intent: 'explore toward ' + at(target) };
  }
  return { action: { type: 'android.wait' }, intent: 'wait: nothing useful to do' };
}

/** Routes from where the android stands; one search a turn, a second only when hazards wall it in. */
class Navigator {
  private readonly paths: Paths;
  private loose?: Paths;

  constructor(private readonly v: View, readonly here: number, readonly blocked: Uint8Array) {
    this.paths = new Paths(here, blocked);
  }

  /** Moves to `tile` (the straight-line distance when there is no known route). */
  steps(tile: number): number {
    const n = this.paths.steps(tile);
    return n === undefined ? distance(this.here, tile) : n;
  }

  /** Whether a route to `tile` is known not to be walled off by hazards. */
  reachable(tile: number): boolean {
    return this.paths.reachable(tile);
  }

  /** A move toward `to`, if the map and the battery allow one. */
  go(to: number): Action | undefined {
    let direction = this.paths.toward(to, this.blocked);
    if (!direction && to !== this.here) {
      // Walled in by known hazards: cross them rather than stand still.
      this.loose = this.loose || new Paths(this.here, this.blocked, true);
      direction = this.loose.toward(to, this.blocked);
    }
    if (!direction || this.v.me.battery < rules.android.moveBatteryCost) return undefined;
    if (neighbour(this.here, direction) === undefined) return undefined;
    return { type: 'android.move', direction };
  }
}

function nearestCharger(v: View, m: Memory, nav: Navigator): { tile: number; steps: number } | undefined {
  const tiles = chargers(v).map((b) => indexOf(b.position));
  if (m.home !== undefined && tiles.indexOf(m.home) < 0) tiles.push(m.home);
  let best: { tile: number; steps: number } | undefined;
  for (const tile of tiles) {
    const steps = nav.steps(tile);
    if (!best || steps < best.steps) best = { tile, steps };
  }
  return best;
}

/** The loose material to fetch next: the nearest, counting electronics (scarce) as nearer. */
function nearestLoot(v: View, m: Memory, nav: Navigator): number | undefined {
  let best: number | undefined;
  let bestSteps = 0;
  const banned = m.banned || [];
  for (const [tile, n, electronics] of m.loot) {
    if (n <= 0 || (tile !== nav.here && nav.blocked[tile] && !worthTheDamage(v, tile))) continue;
    if (banned.some((b) => b[0] === tile)) continue;
    const steps = nav.steps(tile) - (electronics > 0 ? ELECTRONICS_DETOUR : 0);
    if (best === undefined || steps < bestSteps || (steps === bestSteps && tile < best)) {
      best = tile;
      bestSteps = steps;
    }
  }
  return best;
}

/**
 * Loose material on a hazardous tile is worth a quick visit (a round to step on, a round to
 * collect) when that costs no more health than one failed turn, and the android is healthy.
 */
function worthTheDamage(v: View, tile: number): boolean {
  const t = v.tiles.get(tile);
  if (!t) return false;
  const perRound = (t.composition.acid || 0) * rules.android.acidDamagePerPoint +
    (t.composition.radiation || 0) * rules.android.radiationDamagePerPoint;
  return 2 * perRound <= rules.android.failedTurnHealthPenalty && v.me.health > rules.android.maxHealth / 2;
}

/** My nearest completed building that passes `accepts`. */
function ownStore(v: View, accepts: (b: Building) => boolean): Building | undefined {
  const here = indexOf(v.me.position);
  let best: Building | undefined;
  for (const b of v.own) {
    if (!b.complete || !accepts(b)) continue;
    if (!best || distance(here, indexOf(b.position)) < distance(here, indexOf(best.position))) best = b;
  }
  return best;
}

interface Plan {
  type: BuildingType;
  tile: number;
  /** The construction site, when in sight. */
  site?: Building;
  /** What a site of mine out of sight still needed when last seen. */
  owed?: MaterialAmounts;
}

/** How far from home a step's building may stand: harvesters go where the ground is good. */
function reach(type: BuildingType): number {
  return extracts(type) ? HARVEST_RANGE : NEAR_HOME;
}

/** Whether I have somewhere to keep material (one in sight, or a storing step of the plan built). */
function hasStore(v: View, m: Memory): boolean {
  return v.own.some((b) => b.complete && acceptsDeposits(b)) ||
    m.built.some((i) => rules.buildings[BUILD_ORDER[i]].storage.deposit);
}

/**
 * The next step of BUILD_ORDER to work on, and where it goes; undefined when all stand or none
 * can start yet. A site of mine in sight comes first, then the spot already chosen, then a new
 * step, which needs its whole cost at hand once there is storage (cargo plus the storage in sight).
 */
function buildPlan(v: View, m: Memory, nav: Navigator): Plan | undefined {
  const home = m.home as number;
  const complete = new Map<BuildingType, number>();
  for (const b of v.own) {
    if (b.complete && !b.initial && distance(indexOf(b.position), home) <= reach(b.type)) {
      complete.set(b.type, (complete.get(b.type) || 0) + 1);
    }
  }
  // Mark the steps now seen complete: the k-th step of a type needs k of them.
  const nth = new Map<BuildingType, number>();
  const open: number[] = [];
  for (let i = 0; i < BUILD_ORDER.length; i++) {
    const type = BUILD_ORDER[i];
    const k = (nth.get(type) || 0) + 1;
    nth.set(type, k);
    if (m.built.indexOf(i) >= 0) continue;
    if ((complete.get(type) || 0) >= k) {
      m.built.push(i);
      if (m.step === i) m.site = m.step = m.owed = undefined;
    } else {
      open.push(i);
    }
  }
  if (open.length === 0) return undefined;
  // A site of mine in sight: finish it.
  for (const i of open) {
    const type = BUILD_ORDER[i];
    const site = v.own.find((b) => b.type === type && !b.complete && distance(indexOf(b.position), home) <= reach(type));
    if (site) {
      m.site = indexOf(site.position);
      m.step = i;
      m.owed = site.owed;
      return { type, tile: m.site, site };
    }
  }
  // Storage in sight, and what it and the cargo hold.
  let stock: MaterialAmounts = v.me.cargo || {};
  let storeInSight = false;
  for (const b of v.own) {
    if (b.complete && allowsWithdrawals(b)) {
      stock = plus(stock, b.storage);
      if (acceptsDeposits(b)) storeInSight = true;
    }
  }
  const store = hasStore(v, m);
  // The spot already chosen, while it is out of sight or still free (and, with the storage in
  // sight, still affordable).
  if (m.site !== undefined && m.step !== undefined && open.indexOf(m.step) >= 0) {
    const type = BUILD_ORDER[m.step];
    const t = v.tiles.get(m.site);
    const free = !t || (!v.buildingAt.has(m.site) && !isHazard(t));
    // A site seen started is out of sight: go on with what it still needed.
    if (m.owed && !t) return { type, tile: m.site, owed: m.owed };
    if (free && !m.owed && (!storeInSight || covers(stock, costOf(type)))) return { type, tile: m.site };
  }
  m.site = m.step = m.owed = undefined;
  // A step may go ahead of an earlier one still waiting for material (the extractor for its
  // electronics) only with what the earlier one would leave over.
  // Before there is storage, a step starts with some of each material it needs in hand.
  let left = stock;
  for (const i of open) {
    const type = BUILD_ORDER[i];
    if (store ? !covers(left, costOf(type)) : !someOfEach(stock, costOf(type))) {
      left = minus(left, costOf(type));
      continue;
    }
    const tile = extracts(type) ? bestSpot(v, m, nav, type, home) : freeSpot(v, home);
    if (tile === undefined) continue;
    m.site = tile;
    m.step = i;
    return { type, tile };
  }
  return undefined;
}

/** Rounds a harvester is expected to run: to the arrival date if there is one. */
function horizon(): number {
  return finalTurn === undefined ? HORIZON : Math.max(1, finalTurn - turn);
}

/**
 * The remembered spot where a building of `type` would harvest the most over the rounds left,
 * counting the trips a farther one costs; undefined when none is known and reachable.
 */
function bestSpot(v: View, m: Memory, nav: Navigator, type: BuildingType, home: number): number | undefined {
  let best: number | undefined;
  let bestValue = 0;
  for (const [tile, points] of m.spots) {
    const t = v.tiles.get(tile);
    if (v.buildingAt.has(tile) || nav.blocked[tile] || !nav.reachable(tile)) continue;
    const d = distance(tile, home);
    if (d > HARVEST_RANGE) continue;
    // What it yields a round, read afresh when in sight (the remembered value otherwise).
    const perRound = t ? harvestWorth(type, t.composition) : points / 100;
    const value = perRound * Math.max(1, horizon() - 2 * d);
    if (value > bestValue) {
      best = tile;
      bestValue = value;
    }
  }
  return best;
}

/** 'a charger', 'an extractor'. */
function article(type: BuildingType): string {
  return (/^[aeiou]/.test(type) ? 'an ' : 'a ') + type;
}

/** For a harvester: what the ground under it holds, e.g. ' on 3 ore, 2 water'. */
function onWhat(v: View, plan: Plan): string {
  const t = v.tiles.get(plan.tile);
  if (!t || !extracts(plan.type)) return '';
  const parts: string[] = [];
  for (const e of rules.buildings[plan.type].extraction) {
    const n = t.composition[e.source] || 0;
    if (n > 0) parts.push(n + ' ' + e.source);
  }
  return parts.length ? ' on ' + parts.join(', ') : '';
}

/** The closest visible free, hazard-free tile near home (ties: north first, then west). */
function freeSpot(v: View, home: number): number | undefined {
  for (let r = 1; r <= NEAR_HOME; r++) {
    for (let dy = -r; dy <= r; dy++) {
      for (let dx = -r; dx <= r; dx++) {
        if (Math.abs(dx) + Math.abs(dy) !== r) continue;
        const x = xOf(home) + dx;
        const y = yOf(home) + dy;
        if (!onMap(x, y)) continue;
        const i = y * rules.world.width + x;
        const t = v.tiles.get(i);
        if (t && !isHazard(t) && !v.buildingAt.has(i)) return i;
      }
    }
  }
  return undefined;
}

/** The exploration waypoint: four points spread over the board, visited in turn. */
function waypoint(m: Memory, here: number): number | undefined {
  const W = rules.world.width;
  const H = rules.world.height;
  const points = [
    [Math.floor(W / 4), Math.floor(H / 4)],
    [Math.floor((3 * W) / 4), Math.floor(H / 4)],
    [Math.floor((3 * W) / 4), Math.floor((3 * H) / 4)],
    [Math.floor(W / 4), Math.floor((3 * H) / 4)],
  ];
  if (m.waypoint < 0) m.waypoint = Number(androidId.replace(/\D/g, '')) % points.length || 0;
  for (let tries = 0; tries < points.length; tries++) {
    const p = points[m.waypoint % points.length];
    const i = p[1] * W + p[0];
    if (distance(here, i) > 1) return i;
    m.waypoint = (m.waypoint + 1) % points.length;
  }
  return undefined;
}
