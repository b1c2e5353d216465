// What every duty gets to look at: this turn's view, the memory, and routes from here.

import { Memory } from './memory';
import { Navigator } from './nav';
import { SeenMap } from './seen';
import { View } from './sense';

export interface Context {
  v: View;
  m: Memory;
  nav: Navigator;
  /** The tiles seen at least once. */
  seen: SeenMap;
  /** How many 2 x 2 blocks of the board still hold a tile never seen (0: all explored). */
  unexplored: number;
  /** The hazards remembered: tile -> health lost ending a round there, in tenths. */
  harm: Map<number, number>;
  /**
   * Whether this android keeps the base: the oldest of my active androids does (hauling,
   * guarding), while the others roam (exploring, gathering, answering raids).
   */
  keeper: boolean;
}

export interface Decision {
  action: Action;
  /** Logged when it differs from last turn's. */
  intent: string;
  /** The loose-material tile this turn heads for, if any (see pacing in main.ts). */
  goal?: number;
}

/** A duty looks at the situation and either decides this turn or passes (undefined). */
export type Duty = (c: Context) => Decision | undefined;

/** A step toward `tile` as a decision, or undefined when there is no move to make. */
export function walk(c: Context, tile: number, intent: string, goal?: number): Decision | undefined {
  const step = c.nav.go(tile);
  return step ? { action: step, intent, goal } : undefined;
}

/** Rounds left until the humans land, or undefined when the game has no arrival date. */
export function roundsLeft(): number | undefined {
  return finalTurn === undefined ? undefined : finalTurn - turn;
}

/** With fewer rounds than this left before the humans land, the android is in a hurry: no step of
 * the plan waits for material still to be found, buildings go where they are soonest running,
 * and health is worth spending on loose material (a choice, not a rule). */
export const HURRY = 30;

/** Whether the humans land in fewer than HURRY rounds. */
export function inAHurry(): boolean {
  const left = roundsLeft();
  return left !== undefined && left < HURRY;
}
