// What this android can see this turn, indexed for quick lookups. Tiles are numbered
// y * width + x; the board size comes from rules.world.

import { room } from './economy';

export interface View {
  me: Android;
  here: number;
  /** Visible tiles by index (the android's own tile is always there). */
  tiles: Map<number, Tile>;
  /** Visible buildings and construction sites by tile index. */
  buildingAt: Map<number, Building>;
  /** My owner's visible buildings (complete or not). */
  own: Building[];
  /** My owner's other active androids. Each one lights up its own tile, so all of them are here. */
  siblings: Android[];
  /** Where they stand, and whether each is older than me (launched before), in the same order. */
  siblingTiles: number[];
  siblingOlder: boolean[];
  /** Whether each one's cargo is full (rules.android.cargoCapacity), in the same order. */
  siblingFull: boolean[];
  /** Other players' active androids in sight. */
  rivals: Android[];
}

export const indexOf = (p: Position): number => p.y * rules.world.width + p.x;
export const xOf = (i: number): number => i % rules.world.width;
export const yOf = (i: number): number => Math.floor(i / rules.world.width);
export const at = (i: number): string => '(' + xOf(i) + ',' + yOf(i) + ')';

/** Steps between two tiles, ignoring what lies between. */
export function distance(a: number, b: number): number {
  return Math.abs(xOf(a) - xOf(b)) + Math.abs(yOf(a) - yOf(b));
}

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
  const siblings: Android[] = [];
  const rivals: Android[] = [];
  for (const a of world.androids) {
    if (!a.active || a.id === me.id) continue;
    if (a.ownerId === me.ownerId) siblings.push(a);
    else rivals.push(a);
  }
  const mine = serial(me.id);
  const siblingTiles = siblings.map((s) => indexOf(s.position));
  const siblingOlder = siblings.map((s) => serial(s.id) < mine);
  const siblingFull = siblings.map((s) => room(s) === 0);
  return { me, here: indexOf(me.position), tiles, buildingAt, own, siblings, siblingTiles, siblingOlder, siblingFull, rivals };
}

export function isHazard(t: Tile | undefined): boolean {
  return !!t && ((t.composition.acid || 0) > 0 || (t.composition.radiation || 0) > 0);
}

/** The number in an android id ('android-12' -> 12), to break ties the same way every turn. */
export const serial = (id: string): number => Number(id.replace(/\D/g, '')) || 0;

/**
 * Whether a sibling stands nearer to `tile` than this android (ties go to the older one), so it
 * will most likely take it: two androids chasing the same pod waste a trip. With `toCarry`, a
 * sibling whose cargo is full does not count: it cannot pick anything up, and leaving loose
 * material to it is how two androids end up idle beside a pod neither takes.
 */
export function siblingCloser(v: View, tile: number, toCarry = false): boolean {
  // Written out rather than calling distance(): exploring asks this of many tiles in one turn.
  const W = rules.world.width;
  const x = tile % W;
  const y = (tile - x) / W;
  const mine = Math.abs(v.me.position.x - x) + Math.abs(v.me.position.y - y);
  for (let k = 0; k < v.siblingTiles.length; k++) {
    if (toCarry && v.siblingFull[k]) continue;
    const s = v.siblingTiles[k];
    const sx = s % W;
    const theirs = Math.abs(sx - x) + Math.abs((s - sx) / W - y);
    if (theirs < mine || (theirs === mine && v.siblingOlder[k])) return true;
  }
  return false;
}
