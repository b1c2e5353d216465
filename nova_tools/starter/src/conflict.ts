// Conflict, the way this android sees it. A rival seen salvaging one of my buildings has started
// a raid (memory.ts notes who), and from then on that rival's extractors and chargers are fair
// game: salvaged a turn at a time (rules.salvage.hostileDamage), and what they stored spills onto
// the ground for my androids to pick up and bank. A raider that leaves its own buildings
// unguarded pays for its raids.
//
// The starter never salvages first (raid.ts: RAID_ROUNDS is 0). The house androids raid late:
// a rival's extractor holds everything it harvested, and what a salvaged building stored spills
// onto the ground, where it scores nothing (rules.scoring counts only what completed buildings
// hold). So in the last RAID_ROUNDS rounds before the humans land (finalTurn) their roamers
// salvage every rival's extractors and chargers they know of: too late for the rival to answer
// in kind.
import { Context, Duty, roundsLeft, walk } from './context';
import { RAID_ROUNDS } from './raid';
import { at } from './sense';

/** Rounds before looking around a raider's home again, after finding nothing there (a choice). */
const CALM_ROUNDS = 25;

/** Whether it is time for the raid: the humans land within RAID_ROUNDS rounds (never, at 0). */
export function raiding(): boolean {
  const left = roundsLeft();
  return RAID_ROUNDS > 0 && left !== undefined && left <= RAID_ROUNDS;
}

/** Whether rival number `who` is to be salvaged: every rival during the raid, one that raided me at once. */
function toRaid(c: Context, who: number): boolean {
  return raiding() || c.m.hostile.indexOf(who) >= 0;
}

/** Whether `b` belongs to a rival to salvage, and salvage would be accepted. */
function fairGame(c: Context, b: Building | undefined): b is Building {
  if (!b || b.ownerId === c.v.me.ownerId || b.initial || !rules.buildings[b.type].salvageableByOthers) return false;
  return toRaid(c, c.m.rivals.indexOf(b.ownerId));
}

/**
 * The roamers answer a raid at once, before picking up anything: a raider's extractors hold
 * the most while nobody has touched them. The keeper stays with the base (see retaliate).
 */
export const strikeBack: Duty = (c) => (c.keeper ? undefined : retaliate(c));

/** Salvage the nearest building of a rival that salvaged mine, or of any rival in the raid. */
export const retaliate: Duty = (c) => {
  if (c.m.hostile.length === 0 && !raiding()) return undefined;
  const here = c.v.buildingAt.get(c.v.here);
  if (fairGame(c, here)) {
    // (the intent is part of the recording, which memory.ts budgets: kept as each android had it)
    return { action: { type: 'android.salvage' }, intent: 'salvage the ' + here.type + ' of ' + here.ownerId + (RAID_ROUNDS === 0 ? ', who raided me' : '') };
  }
  let target: [number, number] | undefined;
  let targetSteps = 0;
  for (const prey of c.m.prey) {
    if (!toRaid(c, prey[1]) || !c.nav.reachable(prey[0])) continue;
    const steps = c.nav.steps(prey[0]);
    if (target === undefined || steps < targetSteps) {
      target = prey;
      targetSteps = steps;
    }
  }
  if (target !== undefined) {
    return walk(c, target[0], 'go salvage the building of ' + c.m.rivals[target[1]] + ' at ' + at(target[0]));
  }
  // None known: look around the raider's home, where its buildings most likely are; once its
  // home is in sight with nothing to salvage around it, leave it be for a while.
  if (c.m.calm !== undefined && turn < c.m.calm) return undefined;
  for (const [tile, who] of c.m.dens) {
    if (!toRaid(c, who)) continue;
    if (c.v.tiles.has(tile)) {
      c.m.calm = turn + CALM_ROUNDS;
      return undefined;
    }
    return walk(c, tile, 'look for the buildings of ' + c.m.rivals[who] + ' around its home at ' + at(tile));
  }
  return undefined;
};
