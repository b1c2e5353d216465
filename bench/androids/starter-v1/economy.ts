// Material arithmetic and the build plan. Costs, capacities and what a building accepts all come
// from `rules`: a retuned game changes what this android does, never whether its actions are valid.

export const MATERIALS: Material[] = ['metal', 'electronics', 'polymer', 'ore', 'water', 'acidCanister'];

/**
 * What the android builds near its base, in order. A plan, not a rule: edit it freely. Until
 * there is storage a step starts with some of each material it costs in hand (so the extractor
 * goes first only when electronics turn up early); after that, only with its whole cost at hand.
 * A step that cannot start yet lets a later one go first with what it would leave over. A
 * building that harvests (rules.buildings[type].extraction) goes on the best ore or water tile
 * seen near home rather than next to it.
 */
export const BUILD_ORDER: BuildingType[] = ['extractor', 'depot', 'charger', 'extractor'];

export function units(bag: MaterialAmounts | undefined, m: Material): number {
  return (bag && bag[m]) || 0;
}

export function total(bag: MaterialAmounts | undefined): number {
  let n = 0;
  // Bags are sparse: this loops over the materials present only.
  for (const m in bag) n += bag[m as Material] || 0;
  return n;
}

export function isEmpty(bag: MaterialAmounts | undefined): boolean {
  return total(bag) === 0;
}

/** Room left in the android's cargo. */
export function room(me: Android): number {
  return Math.max(0, rules.android.cargoCapacity - total(me.cargo));
}

/** A building type's cost as a sparse bag (zeros left out). */
export function costOf(type: BuildingType): MaterialAmounts {
  const cost = rules.buildings[type].cost;
  const out: MaterialAmounts = {};
  for (const m of MATERIALS) if (cost[m] > 0) out[m] = cost[m];
  return out;
}

/** Each material of `need` that `have` holds, never more than needed; undefined if none. */
export function payable(have: MaterialAmounts | undefined, need: MaterialAmounts | undefined): MaterialAmounts | undefined {
  let out: MaterialAmounts | undefined;
  for (const m of MATERIALS) {
    const n = Math.min(units(have, m), units(need, m));
    if (n > 0) (out = out || {})[m] = n;
  }
  return out;
}

/** `need` minus `have`, sparse. */
export function minus(need: MaterialAmounts | undefined, have: MaterialAmounts | undefined): MaterialAmounts {
  const out: MaterialAmounts = {};
  for (const m of MATERIALS) {
    const n = units(need, m) - units(have, m);
    if (n > 0) out[m] = n;
  }
  return out;
}

/** What to withdraw from `stored` toward `need`, fitting in `space` cargo units; undefined if nothing. */
export function withdrawable(stored: MaterialAmounts, need: MaterialAmounts, space: number): MaterialAmounts | undefined {
  let out: MaterialAmounts | undefined;
  for (const m of MATERIALS) {
    const n = Math.min(units(stored, m), units(need, m), space);
    if (n > 0) {
      (out = out || {})[m] = n;
      space -= n;
    }
  }
  return out;
}

/** `a` plus `b`, sparse. */
export function plus(a: MaterialAmounts | undefined, b: MaterialAmounts | undefined): MaterialAmounts {
  const out: MaterialAmounts = {};
  for (const m of MATERIALS) {
    const n = units(a, m) + units(b, m);
    if (n > 0) out[m] = n;
  }
  return out;
}

/** Whether `have` holds all of `need`. */
export function covers(have: MaterialAmounts | undefined, need: MaterialAmounts | undefined): boolean {
  for (const m of MATERIALS) if (units(have, m) < units(need, m)) return false;
  return true;
}

/** Whether `have` holds at least one unit of every material `need` names. */
export function someOfEach(have: MaterialAmounts | undefined, need: MaterialAmounts | undefined): boolean {
  for (const m of MATERIALS) if (units(need, m) > 0 && units(have, m) <= 0) return false;
  return true;
}

/** What `have` holds beyond `need` (what can go back into storage), or undefined if nothing. */
export function surplus(have: MaterialAmounts | undefined, need: MaterialAmounts | undefined): MaterialAmounts | undefined {
  const out = minus(have, need);
  return isEmpty(out) ? undefined : out;
}

/** Whether a building of this type harvests its tile's composition. */
export const extracts = (type: BuildingType): boolean => rules.buildings[type].extraction.length > 0;

/** Points a building of `type` would harvest from a tile each round end (capped by the ground), priced by rules.scoring.materials. */
export function harvestWorth(type: BuildingType, ground: Composition): number {
  let points = 0;
  for (const e of rules.buildings[type].extraction) {
    const n = ground[e.source];
    if (n) points += Math.min(e.amount, n) * rules.scoring.materials[e.material];
  }
  return points;
}

export function describe(bag: MaterialAmounts | undefined): string {
  const parts: string[] = [];
  for (const m of MATERIALS) if (units(bag, m) > 0) parts.push(units(bag, m) + ' ' + m);
  return parts.length ? parts.join(', ') : 'nothing';
}

// What buildings can do, read from the rules.
export const canCharge = (b: Building): boolean => rules.buildings[b.type].charge > 0;
export const holdsAndroids = (b: Building): boolean => rules.buildings[b.type].androidCapacity > 0;
export const acceptsDeposits = (b: Building): boolean => rules.buildings[b.type].storage.deposit;
export const allowsWithdrawals = (b: Building): boolean => rules.buildings[b.type].storage.withdraw;
