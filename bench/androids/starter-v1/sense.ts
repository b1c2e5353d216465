// What this android can see this turn, indexed for quick lookups. Tiles are numbered
// y * width + x; the board size comes from rules.world.

import { canCharge, holdsAndroids } from './economy';

export interface View {
  me: Android;
  /** Visible tiles by index (the android's own tile is always there). */
  tiles: Map<number, Tile>;
  /** Visible buildings and construction sites by tile index. */
  buildingAt: Map<number, Building>;
  /** My owner's visible buildings (complete or not). */
  own: Building[];
  /** My owner's active androids. Each one lights up its own tile, so all of them are here. */
  fleet: Android[];
}

export const width = (): number => rules.world.width;
export const height = (): number => rules.world.height;
export const indexOf = (p: Position): number => p.y * rules.world.width + p.x;
export const xOf = (i: number): number => i % rules.world.width;
export const yOf = (i: number): number => Math.floor(i / rules.world.width);
export const at = (i: number): string => '(' + xOf(i) + ',' + yOf(i) + ')';

export function look(): View | undefined {
  let me: Android | undefined;
  for (const a of world.androids) if (a.id === androidId) me = a;
  if (!me) return undefined;
  const tiles = new Map<number, Tile>();
  for (const t of world.tiles) tiles.set(indexOf(t.position), t);
  const buildingAt = new Map<number, Building>();
  const own: Building[] = [];
  for (const b of world.buildings) {
    buildingAt.set(indexOf(b.position), b);
    if (b.ownerId === me.ownerId) own.push(b);
  }
  const fleet: Android[] = [];
  for (const a of world.androids) if (a.active && a.ownerId === me.ownerId) fleet.push(a);
  return { me, tiles, buildingAt, own, fleet };
}

export function isHazard(t: Tile | undefined): boolean {
  return !!t && ((t.composition.acid || 0) > 0 || (t.composition.radiation || 0) > 0);
}

export function isMine(v: View, b: Building | undefined): b is Building {
  return !!b && b.ownerId === v.me.ownerId;
}

/** My completed buildings that can charge an android. */
export function chargers(v: View): Building[] {
  return v.own.filter((b) => b.complete && canCharge(b));
}

/** How many more androids my visible chargers allow (0 when unsure). */
export function spareCapacity(v: View): number {
  let cap = 0;
  for (const b of v.own) if (b.complete && holdsAndroids(b)) cap += rules.buildings[b.type].androidCapacity;
  // Buildings out of sight only add capacity, so this never over-estimates.
  return cap - v.fleet.length;
}
