// A timeline's frames made whole again: each frame is the one before it with the changes the api
// listed applied. Decoding only: nothing here knows a rule.

import type { AndroidState, BuildingState, FrameChange, FrameScore, Timeline, VisibleTile } from './generated/api';

export interface Frame {
  round: number;
  turn: number | null;
  tiles: Map<number, VisibleTile>; // by y * width + x
  androids: Map<string, AndroidState>;
  buildings: Map<string, BuildingState>;
  players: FrameScore[];
  events: number;
}

export function emptyFrame(): Frame {
  return { round: 0, turn: null, tiles: new Map(), androids: new Map(), buildings: new Map(), players: [], events: 0 };
}

export function applyChange(previous: Frame, change: FrameChange, width: number): Frame {
  const tiles = new Map(previous.tiles);
  for (const gone of change.tilesGone) tiles.delete(gone.y * width + gone.x);
  for (const tile of change.tiles) tiles.set(tile.position.y * width + tile.position.x, tile);
  const androids = new Map(previous.androids);
  for (const gone of change.androidsGone) androids.delete(gone);
  for (const android of change.androids) androids.set(android.id, android);
  const buildings = new Map(previous.buildings);
  for (const gone of change.buildingsGone) buildings.delete(gone);
  for (const building of change.buildings) buildings.set(building.id, building);
  return {
    round: change.round,
    turn: change.turn,
    tiles,
    androids,
    buildings,
    players: change.players ?? previous.players,
    events: change.events,
  };
}

/** Every frame of `timeline`, whole; the first is told against `base` (default: an empty board). */
export function decodeTimeline(timeline: Timeline, base: Frame = emptyFrame()): Frame[] {
  const frames: Frame[] = [];
  let previous = base;
  for (const change of timeline.frames) {
    previous = applyChange(previous, change, timeline.width);
    frames.push(previous);
  }
  return frames;
}

/** Androids standing on tile (x, y), active ones first, in the order the frame lists them. */
export function androidsAt(frame: Frame, x: number, y: number): AndroidState[] {
  const here = [...frame.androids.values()].filter((a) => a.position.x === x && a.position.y === y);
  return [...here.filter((a) => a.active), ...here.filter((a) => !a.active)];
}

export function buildingAt(frame: Frame, x: number, y: number): BuildingState | undefined {
  for (const building of frame.buildings.values()) {
    if (building.position.x === x && building.position.y === y) return building;
  }
  return undefined;
}
