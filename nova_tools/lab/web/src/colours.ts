// The lab's palette: a colour per player seat, per material and per hazard, chosen to stay apart
// from one another (the text board's complaint: "materials look alike").

export const SEAT_COLOURS = ['#4fb3ff', '#ff8a4c', '#8bd450', '#c77dff', '#ffd84d', '#ff5fa2', '#3fd9c8', '#d9d9d9'];

export function seatColour(seat: number): string {
  return SEAT_COLOURS[seat % SEAT_COLOURS.length] ?? '#d9d9d9';
}

/** Resources are drawn in no player's colour: a white glyph (its shape and letter say what it
 * is), so water never reads as the blue player nor ore as the orange one. */
export const GLYPH = { fill: '#f4f6fa', ink: '#0b0e14', amount: '#f4f6fa' };

/** Loose material on the surface (white diamonds) and stored material: its letter. */
export const MATERIAL_LETTERS: Record<string, string> = {
  metal: 'm',
  electronics: 'e',
  polymer: 'p',
  ore: 'o',
  water: 'w',
  acidCanister: 'a',
};

/** The ground's hazards tint their tile (acid) or hatch it (radiation); ore and water are glyphs. */
export const GROUND_COLOURS: Record<string, string> = {
  acid: '#b6e61e',
  radiation: '#d04cff',
};

export { BUILDING_LETTERS } from './generated/api';

export const BOARD = {
  background: '#0b0e14',
  tile: '#1b2130',
  tileFogged: '#06080c', // fog: near black, crossed with a faint hatch
  fogHatch: '#1a1f2b',
  grid: '#0b0e14',
  selection: '#ffe14d',
  text: '#e8ecf2',
  muted: '#a3acbb',
  wreck: '#8a8f99',
};
