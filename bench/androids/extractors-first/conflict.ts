// Conflict, the way this android sees it: it never salvages first. A rival seen salvaging one of
// my buildings has started a raid (memory.ts notes who), and from then on that rival's extractors
// and chargers are fair game: salvaged a turn at a time (rules.salvage.hostileDamage), and what
// they stored spills onto the ground for my androids to pick up and bank. A raider that leaves
// its own buildings unguarded pays for its raids.

import { Context, Duty, walk } from './context';
import { at } from './sense';

/** Rounds before looking around a raider's home again, after finding nothing there (a choice). */
const CALM_ROUNDS = 25;

/** Whether `b` belongs to a rival that raided me, and salvage would be accepted. */
function fairGame(c: Context, b: Building | undefined): b is Building {
  if (!b || b.ownerId === c.v.me.ownerId || b.initial || !rules.buildings[b.type].salvageableByOthers) return false;
  return c.m.hostile.indexOf(c.m.rivals.indexOf(b.ownerId)) >= 0;
}

/**
 * The roamers answer a raid at once, before picking up anything: a raider's extractors hold
 * the most while nobody has touched them. The keeper stays with the base (see retaliate).
 */
export const strikeBack: Duty = (c) => (c.keeper ? undefined : retaliate(c));

/** Salvage the nearest building of a rival that salvaged mine. */
export const retaliate: Duty = (c) => {
  if (c.m.hostile.length === 0) return undefined;
  const here = c.v.buildingAt.get(c.v.here);
  if (fairGame(c, here)) {
    return { action: { type: 'android.salvage' }, intent: 'salvage the ' + here.type + ' of ' + here.ownerId + ', who raided me' };
  }
  let target: [number, number] | undefined;
  let targetSteps = 0;
  for (const prey of c.m.prey) {
    if (c.m.hostile.indexOf(prey[1]) < 0 || !c.nav.reachable(prey[0])) continue;
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
    if (c.m.hostile.indexOf(who) < 0) continue;
    if (c.v.tiles.has(tile)) {
      c.m.calm = turn + CALM_ROUNDS;
      return undefined;
    }
    return walk(c, tile, 'look for the buildings of ' + c.m.rivals[who] + ' around its home at ' + at(tile));
  }
  return undefined;
};
