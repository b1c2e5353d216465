// The starter android: a builder that keeps what it builds.
//
// Every turn it goes down the list of DUTIES below and does the first that applies.
// Every number comes from `rules` (never from the rulebook), and every action is checked before
// it is returned (check.ts), because a refused action costs rules.android.failedTurnHealthPenalty
// health and throws away the turn's memory and recording.

import { refusal } from './check';
import { retaliate, strikeBack } from './conflict';
import { Context, Decision, Duty } from './context';
import { prepare, watch } from './defence';
import { defend, guard, haul, keepCharged, launchSibling } from './keep';
import { load, Memory, mild, remember, save } from './memory';
import { Navigator } from './nav';
import { harvester } from './plan';
import { logLine, note } from './log';
import { look } from './sense';
import { bank, bankBeforeTheEnd, build, collectHere, explore, finishSite, gather, gatherAtACost, pickUpNearby } from './work';

const DUTIES: Duty[] = [
  launchSibling, //     on my charger with room for one more: launch a sibling (same script)
  keepCharged, //       charge when a full charge fits; head back before the battery runs out
  prepare, //           before anything of the colony's own: nothing in the starter (defence.ts)
  defend, //            repair a damaged building of mine; stand by one a rival is at
  bankBeforeTheEnd, //  with an arrival date (finalTurn): bank the cargo while there is time
  strikeBack, //        a roamer: salvage a rival's buildings in the raid (raid.ts), or a raider's at once
  finishSite, //        finish a construction site of mine: a site scores nothing until it is done
  collectHere, //       collect loose material on this tile
  pickUpNearby, //      ...and what lies a step or two away
  build, //             start the next building of the plan with its whole cost in hand
  bank, //              bank the cargo in the nearest depot known, when full or idle
  haul, //              the keeper: move what my extractors harvested into a depot, where nobody can take it
  retaliate, //         ...the keeper too, once the base needs nothing
  gather, //            walk to the nearest loose material remembered
  explore, //           walk toward the nearest tile never seen
  gatherAtACost, //     nothing else to do: fetch loose material the hazards make dear
  guard, //             stand by the building a raider would most like to take
];

/** Rounds a loose-material tile is ignored after the android caught itself pacing (a choice). */
const GIVE_UP_ROUNDS = 25;

const turnFunction: AndroidTurn = () => {
  const v = look();
  if (!v) return { type: 'android.wait' };
  const m = load(v.me.memory, v);
  const seen = remember(m, v, harvester());
  watch(m, v);
  giveUpWhenPacing(m, v.here);
  // Routes go around the hazards it has seen; a healthy android crosses the mild ones.
  const blocked = new Uint8Array(rules.world.width * rules.world.height);
  const healthy = v.me.health > rules.android.maxHealth / 2;
  const harm = new Map<number, number>(m.hazards);
  for (const [i, tenths] of m.hazards) blocked[i] = healthy && mild(tenths) ? 0 : 1;
  const unexplored = seen.unseenBlocks();
  const keeper = v.siblingOlder.indexOf(true) < 0;
  const c: Context = { v, m, nav: new Navigator(v.here, blocked, v.me.battery), seen, unexplored, harm, keeper };

  let d: Decision = { action: { type: 'android.wait' }, intent: 'wait: nothing useful to do' };
  for (const duty of DUTIES) {
    const decided = duty(c);
    if (decided) {
      d = decided;
      break;
    }
  }
  const problem = refusal(d.action, v);
  if (problem) d = { action: { type: 'android.wait' }, intent: 'wait: ' + d.intent + ' would be refused (' + problem + ')' };

  m.trail = [...m.trail.slice(-1), [v.here, d.goal === undefined ? -1 : d.goal]];
  const action = d.action;
  if (d.intent !== m.intent) action.recording = note(v.me.recording, logLine(v, d.intent));
  m.intent = d.intent;
  action.memory = save(m);
  return action;
};
export default turnFunction;

/**
 * Back on the tile it stood on two turns ago, after a move: two plans are taking turns (one heads
 * for loose material, the other walks away from it, typically when hazards make the routes to
 * the two differ). Give up on that material for a while so one plan can finish.
 */
function giveUpWhenPacing(m: Memory, here: number): void {
  const banned = m.banned.filter((b) => b[1] >= turn);
  const trail = m.trail;
  if (trail.length === 2 && trail[0][0] === here && trail[1][0] !== here) {
    for (const [, goal] of trail) {
      if (goal >= 0 && !banned.some((b) => b[0] === goal)) banned.push([goal, turn + GIVE_UP_ROUNDS]);
    }
  }
  m.banned = banned;
}
