// house:champion: the starter (../../src, read its README first) with this file in place of its raid.ts.

/** Rounds before the humans land (finalTurn) when the roamers start salvaging every rival's
 * extractors and chargers (conflict.ts). 0: never salvage first, only answer a rival that raided. */
export const RAID_ROUNDS: number = 30;
