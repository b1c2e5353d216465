// What the board draws: a frame it is given and how to show it. The board holds no game logic
// (chessground's rule): it never decides what a player sees or scores; the fog is a frame too.

import type { Frame } from '../frames';

export type Selection = { kind: 'tile'; x: number; y: number } | { kind: 'android'; id: string };

export interface Scales {
  battery: number; // rules.android.batteryCapacity: a full battery bar
  health: number; // rules.android.maxHealth
}

export interface BoardState {
  width: number;
  height: number;
  frame: Frame; // the whole board
  fog: Frame | null; // when set: the board as one player saw it (its tiles are the ones they saw)
  selected: Selection | null;
  colours: Map<string, string>; // player id -> colour
  scales: Scales;
  showWrecks: boolean;
}

export function initialState(): BoardState {
  return {
    width: 12,
    height: 12,
    frame: { round: 0, turn: null, tiles: new Map(), androids: new Map(), buildings: new Map(), players: [], events: 0 },
    fog: null,
    selected: null,
    colours: new Map(),
    scales: { battery: 100, health: 100 },
    showWrecks: true,
  };
}

/** The frame to draw: the fogged one when a player's view is on. */
export function shown(state: BoardState): Frame {
  return state.fog ?? state.frame;
}
