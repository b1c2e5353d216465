// What the android does about a raider before the raid reaches its real buildings: nothing
// beyond answering (conflict.ts) and repairing (keep.ts), here. house:champion has a defence.ts
// of its own in place of this one (nova_tools/starter/house/champion): decoy sites, and the
// depot earlier once a raider is about.
import { Duty } from './context';
import { Memory } from './memory';
import { View } from './sense';

/** A duty ahead of the colony's own work (main.ts): none here. */
export const prepare: Duty = () => undefined;

/** Fold this turn's sight into what the defence remembers: nothing to fold here. */
export function watch(m: Memory, v: View): void {}

/** The build order to follow now: BUILD_ORDER (plan.ts) as it is. */
export function buildOrder(order: BuildingType[], m: Memory): BuildingType[] {
  return order;
}
