// Getting around: one breadth-first search per turn from where the android stands, steering
// around the acid and radiation it has seen. Kept small on purpose: a turn should spend no
// interpreter ticks (rules.script.fuel is counted in them), so the search covers at most
// MAX_SEARCH tiles, and a trip beyond that window is walked greedily.

import { distance, xOf, yOf } from './sense';

export const DIRECTIONS: Direction[] = ['north', 'east', 'south', 'west'];
const DX = [0, 1, 0, -1];
const DY = [-1, 0, 1, 0];

/** The most tiles one search may cover: the whole board up to 24 x 24, else a window. */
const MAX_SEARCH = 576;
/** Half the side of the window searched on a bigger board. */
const WINDOW_RADIUS = 11;

export function onMap(x: number, y: number): boolean {
  return x >= 0 && y >= 0 && x < rules.world.width && y < rules.world.height;
}

/** The tile one step from `from` in `direction`, or undefined off the map. */
export function neighbour(from: number, direction: Direction): number | undefined {
  const d = DIRECTIONS.indexOf(direction);
  const nx = xOf(from) + DX[d];
  const ny = yOf(from) + DY[d];
  return onMap(nx, ny) ? ny * rules.world.width + nx : undefined;
}

/** Shortest routes from one tile to every tile of a window around it. */
export class Paths {
  private readonly x0: number;
  private readonly y0: number;
  private readonly w: number;
  private readonly h: number;
  private readonly dist: Int16Array;
  /** The cell each cell was reached from (the route back to the origin). */
  private readonly parent: Int32Array;
  /** The board index of every tile the search went through, nearest first. */
  readonly order: Int32Array;
  /** How many entries of `order` are filled. */
  readonly count: number;

  /**
   * `blocked[i]` marks tiles a route may end on but not pass through (hazards); with
   * `ignoreHazards` every tile is passable.
   */
  constructor(readonly origin: number, blocked: Uint8Array, ignoreHazards = false) {
    const W = rules.world.width;
    const H = rules.world.height;
    const whole = W * H <= MAX_SEARCH;
    this.x0 = whole ? 0 : Math.max(0, xOf(origin) - WINDOW_RADIUS);
    this.y0 = whole ? 0 : Math.max(0, yOf(origin) - WINDOW_RADIUS);
    this.w = (whole ? W : Math.min(W, xOf(origin) + WINDOW_RADIUS + 1)) - this.x0;
    this.h = (whole ? H : Math.min(H, yOf(origin) + WINDOW_RADIUS + 1)) - this.y0;
    const w = this.w;
    const n = w * this.h;
    const dist = (this.dist = new Int16Array(n).fill(-1));
    const parent = (this.parent = new Int32Array(n));
    const queue = new Int32Array(n);
    const order = (this.order = new Int32Array(n));
    const start = (yOf(origin) - this.y0) * w + (xOf(origin) - this.x0);
    const x0 = this.x0;
    const y0 = this.y0;
    const pass = ignoreHazards ? new Uint8Array(W * H) : blocked; // 0: a route may go on from there
    dist[start] = 0;
    queue[0] = start;
    let head = 0;
    let tail = 1;
    // The four neighbours are written out, and without `?:` or an inner loop: the interpreter
    // counts every jump back (and every call) against the turn's fuel. A hazard can end a route,
    // never be a tile on the way, so it gets a distance but is not expanded.
    while (head < tail) {
      const cell = queue[head++];
      const cx = cell % w;
      const g = ((cell - cx) / w + y0) * W + cx + x0; // the same tile, as a board index
      order[head - 1] = g;
      const d1 = dist[cell] + 1;
      let next: number;
      if (cell >= w && dist[(next = cell - w)] < 0) {
        dist[next] = d1;
        parent[next] = cell;
        if (!pass[g - W]) queue[tail++] = next;
      }
      if (cx + 1 < w && dist[(next = cell + 1)] < 0) {
        dist[next] = d1;
        parent[next] = cell;
        if (!pass[g + 1]) queue[tail++] = next;
      }
      if (cell + w < n && dist[(next = cell + w)] < 0) {
        dist[next] = d1;
        parent[next] = cell;
        if (!pass[g + W]) queue[tail++] = next;
      }
      if (cx > 0 && dist[(next = cell - 1)] < 0) {
        dist[next] = d1;
        parent[next] = cell;
        if (!pass[g - 1]) queue[tail++] = next;
      }
    }
    this.count = tail;
  }

  private local(tile: number): number {
    const x = xOf(tile) - this.x0;
    const y = yOf(tile) - this.y0;
    return x < 0 || y < 0 || x >= this.w || y >= this.h ? -1 : y * this.w + x;
  }

  /** Moves to reach `tile`, or undefined when it is walled off or outside the window. */
  steps(tile: number): number | undefined {
    const i = this.local(tile);
    return i >= 0 && this.dist[i] >= 0 ? this.dist[i] : undefined;
  }

  /** False only when `tile` is inside the window and walled off. */
  reachable(tile: number): boolean {
    const i = this.local(tile);
    return i < 0 || this.dist[i] >= 0;
  }

  /** The first move toward `tile`: along the route if there is one, else greedily. */
  toward(tile: number, blocked: Uint8Array): Direction | undefined {
    if (tile === this.origin) return undefined;
    let i = this.local(tile);
    if (i >= 0 && this.dist[i] > 0) {
      // Walk the route back to the step next to the origin.
      while (this.dist[i] > 1) i = this.parent[i];
      const dx = (i % this.w) + this.x0 - xOf(this.origin);
      const dy = Math.floor(i / this.w) + this.y0 - yOf(this.origin);
      return dy < 0 ? 'north' : dx > 0 ? 'east' : dy > 0 ? 'south' : 'west';
    }
    if (i >= 0) return undefined; // inside the window but walled off
    // Beyond the window: the first step that gets closer, preferring tiles without hazards.
    let fallback: Direction | undefined;
    for (let d = 0; d < 4; d++) {
      const nx = xOf(this.origin) + DX[d];
      const ny = yOf(this.origin) + DY[d];
      const next = ny * rules.world.width + nx;
      if (!onMap(nx, ny) || distance(next, tile) >= distance(this.origin, tile)) continue;
      if (!blocked[next]) return DIRECTIONS[d];
      fallback = fallback || DIRECTIONS[d];
    }
    return fallback;
  }
}

/** Routes from where the android stands: one search a turn, a second only when hazards wall it in. */
export class Navigator {
  private readonly paths: Paths;
  private loose?: Paths;

  constructor(readonly here: number, readonly blocked: Uint8Array, private readonly battery: number) {
    this.paths = new Paths(here, blocked);
  }

  /** Moves to `tile` (the straight-line distance when no route is known). */
  steps(tile: number): number {
    const n = this.paths.steps(tile);
    return n === undefined ? distance(this.here, tile) : n;
  }

  /** Whether a route to `tile` is known not to be walled off by hazards. */
  reachable(tile: number): boolean {
    return this.paths.reachable(tile);
  }

  /**
   * The nearest tile (by route) that is `wanted` and that `skip` does not turn down; when `skip`
   * turns them all down, the nearest wanted one. Walks the search in the order it went, so it
   * stops at the first match instead of measuring every tile.
   */
  nearestWhere(wanted: (tile: number) => boolean, skip: (tile: number) => boolean): number | undefined {
    const order = this.paths.order;
    let fallback: number | undefined;
    for (let k = 0; k < this.paths.count; k++) {
      const tile = order[k];
      if (!wanted(tile)) continue;
      if (!skip(tile)) return tile;
      if (fallback === undefined) fallback = tile;
    }
    return fallback;
  }

  /** A move toward `to`, if the map and the battery allow one. */
  go(to: number): Action | undefined {
    let direction = this.paths.toward(to, this.blocked);
    if (!direction && to !== this.here) {
      // Walled in by known hazards: cross them rather than stand still.
      this.loose = this.loose || new Paths(this.here, this.blocked, true);
      direction = this.loose.toward(to, this.blocked);
    }
    if (!direction || this.battery < rules.android.moveBatteryCost) return undefined;
    if (neighbour(this.here, direction) === undefined) return undefined;
    return { type: 'android.move', direction };
  }
}
