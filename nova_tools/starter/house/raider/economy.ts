// Material arithmetic, and what the rules say buildings cost, do and are worth. Every number
// comes from `rules`: a retuned game changes what this android does, never whether its actions
// are valid.

export const MATERIALS: Material[] = ['metal', 'electronics', 'polymer', 'ore', 'water', 'acidCanister'];

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

/** An amount from the rules (a cost, the repair cost) as a sparse bag, times `times`. */
export function bagOf(amounts: Materials, times = 1): MaterialAmounts {
  const out: MaterialAmounts = {};
  for (const m of MATERIALS) if (amounts[m] > 0) out[m] = amounts[m] * times;
  return out;
}

export const costOf = (type: BuildingType): MaterialAmounts => bagOf(rules.buildings[type].cost);

/** `need` minus `have`, sparse (never below zero). */
export function minus(need: MaterialAmounts | undefined, have: MaterialAmounts | undefined): MaterialAmounts {
  const out: MaterialAmounts = {};
  for (const m of MATERIALS) {
    const n = units(need, m) - units(have, m);
    if (n > 0) out[m] = n;
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

/** Each material of `need` that `have` holds, never more than needed; undefined if none. */
export function payable(have: MaterialAmounts | undefined, need: MaterialAmounts | undefined): MaterialAmounts | undefined {
  let out: MaterialAmounts | undefined;
  for (const m of MATERIALS) {
    const n = Math.min(units(have, m), units(need, m));
    if (n > 0) (out = out || {})[m] = n;
  }
  return out;
}

/** What to take from `stored` toward `need`, fitting in `space` cargo units; undefined if nothing. */
export function takeable(stored: MaterialAmounts | undefined, need: MaterialAmounts, space: number): MaterialAmounts | undefined {
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

/** As much of `stored` as fits in `space`, scarce (high-scoring) material first. */
export function fill(stored: MaterialAmounts | undefined, space: number): MaterialAmounts | undefined {
  const order = MATERIALS.slice().sort((a, b) => rules.scoring.materials[b] - rules.scoring.materials[a]);
  let out: MaterialAmounts | undefined;
  for (const m of order) {
    const n = Math.min(units(stored, m), space);
    if (n > 0) {
      (out = out || {})[m] = n;
      space -= n;
    }
  }
  return out;
}

/** Points a bag would score stored in a building (rules.scoring.materials). */
export function worth(bag: MaterialAmounts | undefined): number {
  let points = 0;
  for (const m of MATERIALS) points += units(bag, m) * rules.scoring.materials[m];
  return points;
}

export function describe(bag: MaterialAmounts | undefined): string {
  const parts: string[] = [];
  for (const m of MATERIALS) if (units(bag, m) > 0) parts.push(units(bag, m) + ' ' + m);
  return parts.length ? parts.join(', ') : 'nothing';
}

// What a building type does, read from the rules.
export const extracts = (type: BuildingType): boolean => rules.buildings[type].extraction.length > 0;
export const stores = (type: BuildingType): boolean => rules.buildings[type].storage.deposit;
export const canWithdraw = (type: BuildingType): boolean => rules.buildings[type].storage.withdraw;
export const charges = (type: BuildingType): boolean => rules.buildings[type].charge > 0;
export const holdsAndroids = (type: BuildingType): boolean => rules.buildings[type].androidCapacity > 0;
export const fullHealth = (type: BuildingType): number => rules.buildings[type].health;

/**
 * Points a building of `type` would harvest from a tile each round end (capped by what the
 * ground holds), priced by rules.scoring.materials.
 */
export function harvestWorth(type: BuildingType, ground: Composition): number {
  let points = 0;
  for (const e of rules.buildings[type].extraction) {
    const n = ground[e.source];
    if (n) points += Math.min(e.amount, n) * rules.scoring.materials[e.material];
  }
  return points;
}

/** 'a charger', 'an extractor'. */
export function article(type: BuildingType): string {
  return (/^[aeiou]/.test(type) ? 'an ' : 'a ') + type;
}
