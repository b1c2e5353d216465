// The engine's reasons to refuse an action, checked before the action is returned. A refused
// action is a failed turn: it costs rules.android.failedTurnHealthPenalty health and throws away
// the turn's memory and recording. So the android asks here first, and waits instead when the
// answer is no (and logs why: a refusal here is a bug in this script worth reading about).

import { covers, isEmpty, MATERIALS, room, total, units } from './economy';
import { View } from './sense';

const STEP: Record<Direction, [number, number]> = { north: [0, -1], south: [0, 1], east: [1, 0], west: [-1, 0] };

/** Why the engine would refuse `action` now, or undefined when it would accept it. */
export function refusal(action: Action, v: View): string | undefined {
  const me = v.me;
  const building = v.buildingAt.get(v.here);
  const mine = building && building.ownerId === me.ownerId ? building : undefined;
  const complete = mine && mine.complete ? mine : undefined;
  const notes = notesTooLong(action);
  if (notes) return notes;
  switch (action.type) {
    case 'android.wait':
    case 'android.dismantle':
      return undefined;
    case 'android.move': {
      const [dx, dy] = STEP[action.direction];
      const x = me.position.x + dx;
      const y = me.position.y + dy;
      if (x < 0 || y < 0 || x >= rules.world.width || y >= rules.world.height) return 'off the map';
      return me.battery < rules.android.moveBatteryCost ? 'not enough battery to move' : undefined;
    }
    case 'android.charge':
      return complete && rules.buildings[complete.type].charge > 0 ? undefined : 'no charger of mine here';
    case 'android.collect': {
      const tile = v.tiles.get(v.here);
      if (action.resources) return covers(tile && tile.scattered, action.resources) && total(action.resources) <= room(me) ? undefined : 'that is not here';
      return tile && total(tile.scattered) > 0 && room(me) > 0 ? undefined : 'nothing to collect, or no room';
    }
    case 'android.deposit':
      if (!complete || !rules.buildings[complete.type].storage.deposit) return 'no storage of mine here';
      return (action.resources ? total(action.resources) > 0 && covers(me.cargo, action.resources) : total(me.cargo) > 0) ? undefined : 'not in the cargo';
    case 'android.withdraw':
      if (!complete || !rules.buildings[complete.type].storage.withdraw) return 'nothing of mine to withdraw from here';
      if (!action.resources || isEmpty(action.resources) || !covers(complete.storage, action.resources)) return 'not stored here';
      return total(action.resources) <= room(me) ? undefined : 'no room in the cargo';
    case 'android.start-construction':
      if (building) return 'the tile is taken';
      return payment(action.resources, rules.buildings[action.buildingType].cost, me);
    case 'android.continue-construction': {
      if (!mine || mine.complete) return 'no site of mine here';
      const problem = payment(action.resources, mine.owed, me);
      if (problem) return problem;
      return isEmpty(action.resources) && !isEmpty(mine.owed) ? 'the site is not paid for' : undefined;
    }
    case 'android.salvage':
      if (!building) return 'nothing to salvage here';
      if (building.initial) return 'an initial charger cannot be salvaged';
      return mine || rules.buildings[building.type].salvageableByOthers ? undefined : 'protected from salvage';
    case 'android.repair':
      if (!complete || complete.health >= rules.buildings[complete.type].health) return 'nothing of mine to repair here';
      return covers(me.cargo, rules.salvage.repairCost) ? undefined : 'no repair material in the cargo';
    case 'android.launch':
      if (!complete || rules.buildings[complete.type].androidCapacity <= 0) return 'not on a charger of mine';
      if (!world.scripts.some((s) => s.id === action.scriptId)) return 'no such script';
      return capacityLeft(v) > 0 ? undefined : 'the chargers are full';
    case 'android.broadcast':
      return action.content.length <= rules.android.broadcastLimit ? undefined : 'the message is too long';
    case 'android.clean-acid':
      return 'this android does not clean acid';
  }
  return 'unknown action';
}

/** Android capacity my visible buildings give, less my active androids (never an over-estimate:
 * buildings out of sight only add capacity). */
export function capacityLeft(v: View): number {
  let cap = 0;
  for (const b of v.own) if (b.complete) cap += rules.buildings[b.type].androidCapacity;
  return cap - 1 - v.siblings.length;
}

/** A payment the engine takes: only material the bill names, no more than it asks, from cargo. */
function payment(offered: MaterialAmounts | undefined, bill: MaterialAmounts, me: Android): string | undefined {
  for (const m of MATERIALS) {
    const n = units(offered, m);
    if (n > units(bill, m)) return 'more ' + m + ' than it takes';
    if (n > units(me.cargo, m)) return 'not enough ' + m + ' in the cargo';
  }
  return undefined;
}

function notesTooLong(action: Action): string | undefined {
  if (action.memory !== undefined && action.memory.length > rules.android.memoryLimit) return 'memory too long';
  if (action.recording !== undefined && action.recording.length > rules.android.recordingLimit) return 'recording too long';
  return undefined;
}
