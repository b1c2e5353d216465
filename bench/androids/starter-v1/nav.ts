// Getting around: one breadth-first search per turn from where the android stands, steering
// around the acid and radiation it has seen. Kept small on purpose: a turn should spend no
// interpreter ticks (rules.script.fuel is counted in them), so the search covers at most
// MAX_SEARCH tiles, and a trip beyond that window is walked greedily.

import { xOf, yOf } from './sense';

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

export function distance(a: number, b: number): number {
  return Math.abs(xOf(a) - xOf(b)) + Math.abs(yOf(a) - yOf(b));
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
  private readonly first: Int8Array;

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
    const first = (this.first = new Int8Array(n).fill(-1));
    const queue = new Int32Array(n);
    const start = (yOf(origin) - this.y0) * w + (xOf(origin) - this.x0);
    const x0 = this.x0;
    const y0 = this.y0;
    dist[start] = 0;
    queue[0] = start;
    let head = 0;
    let tail = 1;
    // The four neighbours are written out (north, east, south, west, as in DIRECTIONS): an inner
    // loop would cost the interpreter three times as much. A hazard can end a route, never be
    // a tile on the way, so it gets a distance but is not expanded.
    while (head < tail) {
      const cell = queue[head++];
      const cx = cell % w;
      const g = ((cell - cx) / w + y0) * W + cx + x0; // the same tile, as a board index
      const d1 = dist[cell] + 1;
      const f = cell === start ? -1 : first[cell];
      let next: number;
      if (cell >= w && dist[(next = cell - w)] < 0) {
        dist[next] = d1;
        first[next] = f < 0 ? 0 : f;
        if (ignoreHazards || !blocked[g - W]) queue[tail++] = next;
      }
      if (cx + 1 < w && dist[(next = cell + 1)] < 0) {
        dist[next] = d1;
        first[next] = f < 0 ? 1 : f;
        if (ignoreHazards || !blocked[g + 1]) queue[tail++] = next;
      }
      if (cell + w < n && dist[(next = cell + w)] < 0) {
        dist[next] = d1;
        first[next] = f < 0 ? 2 : f;
        if (ignoreHazards || !blocked[g + W]) queue[tail++] = next;
      }
      if (cx > 0 && dist[(next = cell - 1)] < 0) {
        dist[next] = d1;
        first[next] = f < 0 ? 3 : f;
        if (ignoreHazards || !blocked[g - 1]) queue[tail++] = next;
      }
    }
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
    const i = this.local(tile);
    if (i >= 0 && this.first[i] >= 0) return DIRECTIONS[this.first[i]];
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
