// Drawing a frame on a canvas: tiles (ground and hazards), loose material, buildings with their
// owner and construction progress, androids in their owner's colour, wrecks, the fog, the selection.

import { BOARD, BUILDING_LETTERS, GLYPH, GROUND_COLOURS, MATERIAL_LETTERS } from '../colours';
import type { AndroidState, BuildingState, VisibleTile } from '../generated/api';
import { type BoardState, shown } from './state';

/** Where androids standing on a building go: the middle of its right and left edges, then of its
 * top and bottom, never the corners where the tile's amounts are written. */
const BUILDING_CORNERS: ReadonlyArray<readonly [number, number]> = [
  [0.88, 0.5],
  [0.12, 0.5],
  [0.5, 0.1],
  [0.5, 0.9],
];

export interface Geometry {
  tile: number; // pixels per tile (CSS pixels)
  gap: number;
}

export function geometry(state: BoardState, cssWidth: number): Geometry {
  const tile = cssWidth / state.width;
  return { tile, gap: tile >= 24 ? 2 : 1 };
}

export function render(ctx: CanvasRenderingContext2D, state: BoardState, geo: Geometry): void {
  const { width, height } = state;
  const { tile } = geo;
  const frame = shown(state);
  ctx.save();
  ctx.fillStyle = BOARD.background;
  ctx.fillRect(0, 0, width * tile, height * tile);
  const fogged = state.fog !== null;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const data = frame.tiles.get(y * width + x);
      const seen = !fogged || data !== undefined;
      drawTile(ctx, geo, x, y, data, seen);
    }
  }
  const stacks = new Map<number, AndroidState[]>();
  for (const android of frame.androids.values()) {
    if (!android.active && !state.showWrecks) continue;
    const key = android.position.y * width + android.position.x;
    const stack = stacks.get(key);
    if (stack) stack.push(android);
    else stacks.set(key, [android]);
  }
  const builtOn = new Set<number>();
  for (const building of frame.buildings.values()) {
    drawBuilding(ctx, geo, building, state.colours.get(building.ownerId) ?? BOARD.text);
    builtOn.add(building.position.y * width + building.position.x);
  }
  for (const [key, stack] of stacks) {
    // the order a click picks them in (frames.androidsAt): active ones first
    const ordered = [...stack.filter((a) => a.active), ...stack.filter((a) => !a.active)];
    drawAndroids(ctx, geo, state, ordered, builtOn.has(key));
  }
  drawSelection(ctx, geo, state);
  ctx.restore();
}

function drawTile(ctx: CanvasRenderingContext2D, geo: Geometry, x: number, y: number, data: VisibleTile | undefined, seen: boolean): void {
  const { tile, gap } = geo;
  const left = x * tile + gap / 2;
  const top = y * tile + gap / 2;
  const size = tile - gap;
  ctx.fillStyle = seen ? BOARD.tile : BOARD.tileFogged;
  ctx.fillRect(left, top, size, size);
  if (!seen) {
    ctx.fillStyle = BOARD.fogHatch;
    hatch(ctx, left, top, size);
    return;
  }
  if (!data) return;
  const ground = data.composition;
  // hazards tint the whole tile, stronger for more
  for (const hazard of ['acid', 'radiation']) {
    const amount = ground[hazard] ?? 0;
    if (amount > 0) {
      ctx.globalAlpha = Math.min(0.18 + amount * 0.09, 0.55);
      ctx.fillStyle = GROUND_COLOURS[hazard] ?? '#fff';
      if (hazard === 'radiation') hatch(ctx, left, top, size);
      else ctx.fillRect(left, top, size, size);
      ctx.globalAlpha = 1;
    }
  }
  // what the ground holds: ore (squares) and water (drops) at the bottom left; a hazard's strength
  // in its colour at the bottom right (the tint says which hazard)
  const slot = size * 0.5;
  (['ore', 'water'] as const)
    .filter((kind) => (ground[kind] ?? 0) > 0)
    .forEach((kind, index) => chip(ctx, geo, left + 2 + index * slot, top + size - size * 0.25, kind, ground[kind] ?? 0));
  const hazards = (['acid', 'radiation'] as const).filter((kind) => (ground[kind] ?? 0) > 0);
  hazards.forEach((kind, index) => {
    const x = left + size - 3 - index * size * 0.2;
    const y = top + size - size * 0.13;
    if (geo.tile >= 30) label(ctx, String(ground[kind]), x, y, size * 0.24, 'right', BOARD.text);
  });
  // loose material: a diamond per material at the top right, with its amount
  const loose = Object.entries(data.scattered).filter(([, units]) => units > 0);
  loose.forEach(([material, units], index) => diamond(ctx, geo, left + size - size * 0.16 - index * size * 0.24, top + size * 0.16, material, units));
}

function hatch(ctx: CanvasRenderingContext2D, left: number, top: number, size: number): void {
  ctx.save();
  ctx.beginPath();
  ctx.rect(left, top, size, size);
  ctx.clip();
  ctx.lineWidth = Math.max(1, size / 10);
  ctx.strokeStyle = ctx.fillStyle;
  for (let offset = -size; offset < size; offset += size / 4) {
    ctx.beginPath();
    ctx.moveTo(left + offset, top + size);
    ctx.lineTo(left + offset + size, top);
    ctx.stroke();
  }
  ctx.restore();
}

function chip(ctx: CanvasRenderingContext2D, geo: Geometry, x: number, y: number, kind: string, amount: number): void {
  // ore a white square, water a white drop, each with its letter; the amount beside it
  const size = geo.tile * 0.2;
  ctx.fillStyle = GLYPH.fill;
  ctx.beginPath();
  if (kind === 'water') ctx.arc(x + size / 2, y + size / 2, size / 2, 0, Math.PI * 2);
  else ctx.rect(x, y, size, size);
  ctx.fill();
  if (geo.tile >= 30) {
    label(ctx, kind === 'water' ? 'w' : 'o', x + size / 2, y + size / 2, size * 0.9, 'center', GLYPH.ink);
    label(ctx, String(amount), x + size + 2, y + size / 2, geo.tile * 0.22, 'left', GLYPH.amount);
  }
}

function diamond(ctx: CanvasRenderingContext2D, geo: Geometry, cx: number, cy: number, material: string, units: number): void {
  // loose material: a white diamond with the material's letter, the amount under it
  const r = geo.tile * 0.12;
  ctx.fillStyle = GLYPH.fill;
  ctx.beginPath();
  ctx.moveTo(cx, cy - r);
  ctx.lineTo(cx + r, cy);
  ctx.lineTo(cx, cy + r);
  ctx.lineTo(cx - r, cy);
  ctx.closePath();
  ctx.fill();
  if (geo.tile >= 30) {
    label(ctx, MATERIAL_LETTERS[material] ?? '?', cx, cy + 0.5, r * 1.1, 'center', GLYPH.ink);
    label(ctx, String(units), cx, cy + r * 2, r * 1.5, 'center', GLYPH.amount);
  }
}

function label(ctx: CanvasRenderingContext2D, text: string, x: number, y: number, size: number, align: CanvasTextAlign, colour: string): void {
  ctx.font = `600 ${Math.max(8, Math.round(size))}px system-ui, sans-serif`;
  ctx.textAlign = align;
  ctx.textBaseline = 'middle';
  ctx.fillStyle = colour;
  ctx.fillText(text, x, y);
}

function sum(bag: Record<string, number>): number {
  return Object.values(bag).reduce((total, units) => total + units, 0);
}

function drawBuilding(ctx: CanvasRenderingContext2D, geo: Geometry, building: BuildingState, colour: string): void {
  const { tile } = geo;
  // high in its tile: the bottom band is the ground's amounts, never covered
  const inset = tile * 0.19;
  const x = building.position.x * tile + inset;
  const y = building.position.y * tile + tile * 0.08;
  const size = tile - inset * 2;
  ctx.lineWidth = Math.max(1.5, tile / 16);
  ctx.strokeStyle = colour;
  if (building.complete) {
    ctx.fillStyle = colour + '44';
    ctx.fillRect(x, y, size, size);
    ctx.strokeRect(x, y, size, size);
    if (building.initial) {
      ctx.strokeRect(x + ctx.lineWidth * 1.5, y + ctx.lineWidth * 1.5, size - ctx.lineWidth * 3, size - ctx.lineWidth * 3);
    }
  } else {
    // a construction site: dashed outline, and a bar of the material paid in so far
    ctx.setLineDash([tile / 10, tile / 14]);
    ctx.strokeRect(x, y, size, size);
    ctx.setLineDash([]);
    const paid = sum(building.invested);
    const total = paid + sum(building.owed);
    const share = total > 0 ? paid / total : 1;
    ctx.fillStyle = colour;
    ctx.fillRect(x, y + size + 1, size * share, Math.max(2, tile / 14));
  }
  label(ctx, BUILDING_LETTERS[building.type] ?? '?', x + size / 2, y + size / 2 + 1, size * 0.55, 'center', building.complete ? BOARD.text : colour);
}

function drawAndroids(ctx: CanvasRenderingContext2D, geo: Geometry, state: BoardState, stack: AndroidState[], onBuilding: boolean): void {
  const { tile } = geo;
  const shownStack = stack.slice(0, 4);
  shownStack.forEach((android, index) => {
    const [cx, cy] = androidCentre(geo, android.position.x, android.position.y, index, shownStack.length, onBuilding);
    const r = onBuilding ? tile * 0.13 : shownStack.length === 1 ? tile * 0.22 : tile * 0.15;
    const colour = state.colours.get(android.ownerId) ?? BOARD.text;
    if (!android.active) {
      ctx.strokeStyle = BOARD.wreck;
      ctx.lineWidth = Math.max(1.5, tile / 18);
      ctx.beginPath();
      ctx.moveTo(cx - r * 0.7, cy - r * 0.7);
      ctx.lineTo(cx + r * 0.7, cy + r * 0.7);
      ctx.moveTo(cx + r * 0.7, cy - r * 0.7);
      ctx.lineTo(cx - r * 0.7, cy + r * 0.7);
      ctx.stroke();
      return;
    }
    ctx.fillStyle = colour;
    ctx.beginPath();
    ctx.arc(cx, cy, r, 0, Math.PI * 2);
    ctx.fill();
    ctx.lineWidth = Math.max(1, tile / 28);
    ctx.strokeStyle = BOARD.background;
    ctx.stroke();
    // battery: an arc around the android, full when the battery is
    const share = Math.max(0, Math.min(1, android.battery / state.scales.battery));
    ctx.strokeStyle = share > 0.3 ? '#f2f5f9' : '#ff4d4d';
    ctx.lineWidth = Math.max(1.5, tile / 22);
    ctx.beginPath();
    ctx.arc(cx, cy, r + ctx.lineWidth, -Math.PI / 2, -Math.PI / 2 + share * Math.PI * 2);
    ctx.stroke();
    if (Object.keys(android.cargo).length > 0 && tile >= 20) {
      ctx.fillStyle = BOARD.background;
      ctx.beginPath();
      ctx.arc(cx, cy, r * 0.35, 0, Math.PI * 2);
      ctx.fill();
    }
  });
  if (stack.length > shownStack.length) {
    const first = stack[0]!;
    label(ctx, `+${stack.length - shownStack.length}`, first.position.x * tile + tile - 3, first.position.y * tile + 8, tile * 0.22, 'right', BOARD.text);
  }
}

/** Where the `index`-th of `count` androids on a tile is drawn (one: the centre; more: quadrants;
 * on a building: its corners, so the building's letter stays readable). */
export function androidCentre(geo: Geometry, x: number, y: number, index: number, count: number, onBuilding = false): [number, number] {
  const { tile } = geo;
  if (onBuilding) {
    const [dx, dy] = BUILDING_CORNERS[index % BUILDING_CORNERS.length]!;
    return [x * tile + tile * dx, y * tile + tile * dy];
  }
  if (count <= 1) return [x * tile + tile / 2, y * tile + tile / 2];
  const dx = index % 2 === 0 ? 0.3 : 0.7;
  const dy = index < 2 ? 0.3 : 0.7;
  return [x * tile + tile * dx, y * tile + tile * dy];
}

function drawSelection(ctx: CanvasRenderingContext2D, geo: Geometry, state: BoardState): void {
  const selected = state.selected;
  if (!selected) return;
  const frame = shown(state);
  let x: number;
  let y: number;
  if (selected.kind === 'tile') {
    ({ x, y } = selected);
  } else {
    const android = frame.androids.get(selected.id); // out of a fogged view's sight: nothing to mark
    if (!android) return;
    ({ x, y } = android.position);
  }
  ctx.strokeStyle = BOARD.selection;
  ctx.lineWidth = Math.max(2, geo.tile / 14);
  ctx.strokeRect(x * geo.tile + ctx.lineWidth / 2, y * geo.tile + ctx.lineWidth / 2, geo.tile - ctx.lineWidth, geo.tile - ctx.lineWidth);
}
