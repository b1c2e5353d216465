// The one number the house androids change (nova_tools/starter/house/): each of them is these
// sources with its own raid.ts in place of this one.

/** Rounds before the humans land (finalTurn) when the roamers start salvaging every rival's
 * extractors and chargers (conflict.ts). 0: never salvage first, only answer a rival that raided. */
export const RAID_ROUNDS: number = 0;
