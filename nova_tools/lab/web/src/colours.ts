// The lab's palette: a colour per player seat, per material and per hazard, chosen to stay apart
// from one another (the text board's complaint: "materials look alike").

export const SEAT_COLOURS = ['#4fb3ff', '#ff8a4c', '#8bd450', '#c77dff', '#ffd84d', '#ff5fa2', '#3fd9c8', '#d9d9d9'];

export function seatColour(seat: number): string {
  return SEAT_COLOURS[seat % SEAT_COLOURS.length] ?? '#d9d9d9';
}

/** Loose material on the surface (diamonds) and stored material. */
export const MATERIAL_COLOURS: Record<string, string> = {
  metal: '#c8d0da',
  electronics: '#4be39a',
  polymer: '#ff7ad9',
  ore: '#d8904a',
  water: '#4aa8ff',
  acidCanister: '#d6f04a',
};

/** What is in the ground. */
export const GROUND_COLOURS: Record<string, string> = {
  ore: '#c07a35',
  water: '#2f86e0',
  acid: '#b6e61e',
  radiation: '#d04cff',
};

export { BUILDING_LETTERS } from './generated/api';

export const BOARD = {
  background: '#0b0e14',
  tile: '#1b2130',
  tileFogged: '#0f131b',
  grid: '#0b0e14',
  selection: '#ffe14d',
  text: '#e8ecf2',
  muted: '#a3acbb',
  wreck: '#8a8f99',
};
