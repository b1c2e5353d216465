// Turning a click on the canvas into what the user pointed at: an android (clicking again on the
// same tile cycles through the androids there, then the tile itself), or a tile.

import { androidsAt, buildingAt } from '../frames';
import { type Geometry, androidCentre } from './render';
import { type BoardState, type Selection, shown } from './state';

export function pick(state: BoardState, geo: Geometry, px: number, py: number): Selection | null {
  const x = Math.floor(px / geo.tile);
  const y = Math.floor(py / geo.tile);
  if (x < 0 || y < 0 || x >= state.width || y >= state.height) return null;
  const here = androidsAt(shown(state), x, y).filter((a) => a.active || state.showWrecks);
  if (here.length === 0) return { kind: 'tile', x, y };
  const shownCount = Math.min(here.length, 4);
  const onBuilding = buildingAt(shown(state), x, y) !== undefined;
  // the android whose circle is nearest the click, unless it is the one already selected
  let nearest = 0;
  let best = Infinity;
  for (let index = 0; index < shownCount; index++) {
    const [cx, cy] = androidCentre(geo, x, y, index, shownCount, onBuilding);
    const distance = (cx - px) ** 2 + (cy - py) ** 2;
    if (distance < best) {
      best = distance;
      nearest = index;
    }
  }
  const current = state.selected;
  const candidates: Selection[] = [...here.map((a): Selection => ({ kind: 'android', id: a.id })), { kind: 'tile', x, y }];
  const first = candidates[nearest]!;
  // a click on another android's circle picks it; a click again on the picked one, or between
  // the circles, moves on to the next android on the tile (then the tile itself)
  const onCircle = best <= (geo.tile * (shownCount === 1 && !onBuilding ? 0.3 : 0.2)) ** 2;
  const at = current ? candidates.findIndex((c) => same(c, current)) : -1;
  if (at >= 0 && (same(current!, first) || !onCircle)) return candidates[(at + 1) % candidates.length]!;
  return first;
}

export function same(a: Selection, b: Selection): boolean {
  if (a.kind === 'tile' && b.kind === 'tile') return a.x === b.x && a.y === b.y;
  if (a.kind === 'android' && b.kind === 'android') return a.id === b.id;
  return false;
}
