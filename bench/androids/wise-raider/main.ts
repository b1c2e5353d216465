// A decoy-aware raider: bench/androids/raider with two conditions added, and nothing else.
//
// At its two salvage checks (what it remembers as prey, and whether to salvage the building it
// stands on) it skips a rival's building that is incomplete and still owes its whole cost: an
// unpaid construction site returns nothing when salvaged (the return is a share of what was
// invested), so taking one apart is a building's health of turns for nothing. The house champion
// leaves such sites around its base as decoys; this is the raider a player writes once they
// notice. Kept frozen as a yardstick (bench/house_compare.py): the champion must beat it too.
//
// A raider: the honest attacker the starter is measured against (bench/starter_compare.py).
//
// It plays the way a newcomer beat the first starter: launch a sibling, pick up loose material,
// build a depot (the one building nobody else can salvage), then walk the board looking for the
// other players' extractors and chargers, salvage them down (rules.salvage.hostileDamage a turn)
// and carry what spills out (the building's whole storage, plus rules.salvage.hostileReturnRate of
// its cost) home to the depot. It builds nothing that scores by itself but the depot.
//
// Every number comes from `rules`, and it checks its actions the way the engine will, so it
// does not lose health to refused turns: a raider that hurts itself would flatter the starter.

interface Memory {
  v: number;
  home: number;
  /** Tiles seen at least once, one bit each, as hex. */
  seen: string;
  /** Loose material last seen: [tile, units]. */
  loot: [number, number][];
  /** Other players' salvageable buildings last seen: [tile, worth]. */
  prey: [number, number][];
  /** Tiles with acid or radiation. */
  hazards: number[];
  /** My depot (or its site), once placed. */
  depot?: number;
  /** The best ground seen near home for an extractor of my own: [tile, units a round]. */
  spot?: [number, number];
  /** My extractor site, while it is being built. */
  site?: number;
}

const W = (): number => rules.world.width;
const H = (): number => rules.world.height;
const idx = (p: Position): number => p.y * W() + p.x;
const dist = (a: number, b: number): number => Math.abs((a % W()) - (b % W())) + Math.abs(Math.floor(a / W()) - Math.floor(b / W()));
const MATERIALS: Material[] = ['metal', 'electronics', 'polymer', 'ore', 'water', 'acidCanister'];
const DIRS: Direction[] = ['north', 'east', 'south', 'west'];
const DX = [0, 1, 0, -1];
const DY = [-1, 0, 1, 0];

function total(bag: MaterialAmounts | undefined): number {
  let n = 0;
  for (const m of MATERIALS) n += (bag && bag[m]) || 0;
  return n;
}

function covers(have: MaterialAmounts | undefined, cost: Materials): boolean {
  for (const m of MATERIALS) if (((have && have[m]) || 0) < cost[m]) return false;
  return true;
}

function costBag(cost: Materials): MaterialAmounts {
  const out: MaterialAmounts = {};
  for (const m of MATERIALS) if (cost[m] > 0) out[m] = cost[m];
  return out;
}

function isHazard(t: Tile): boolean {
  return (t.composition.acid || 0) > 0 || (t.composition.radiation || 0) > 0;
}

/** Units an extractor would harvest here each round. */
function harvest(t: Tile): number {
  let n = 0;
  for (const e of rules.buildings.extractor.extraction) if (e.source !== 'acid') n += Math.min(e.amount, t.composition[e.source] || 0);
  return n;
}

function load(text: string, here: number): Memory {
  try {
    const m = JSON.parse(text) as Memory;
    if (m && m.v === 1) return m;
  } catch (_) {
    // first turn
  }
  return { v: 1, home: here, seen: '0'.repeat(Math.ceil((W() * H()) / 4)), loot: [], prey: [], hazards: [] };
}

function markSeen(m: Memory, tiles: number[]): void {
  const chars = m.seen.split('');
  for (const i of tiles) {
    const c = i >> 2;
    chars[c] = (parseInt(chars[c], 16) | (1 << (i & 3))).toString(16);
  }
  m.seen = chars.join('');
}

const seen = (m: Memory, i: number): boolean => ((parseInt(m.seen[i >> 2], 16) >> (i & 3)) & 1) === 1;

/** Breadth-first distances and first moves from `from`, around known hazards. */
function search(from: number, hazards: Set<number>): { d: Int16Array; first: Int8Array } {
  const n = W() * H();
  const d = new Int16Array(n).fill(-1);
  const first = new Int8Array(n).fill(-1);
  const queue = [from];
  d[from] = 0;
  for (let head = 0; head < queue.length; head++) {
    const c = queue[head];
    const cx = c % W();
    const cy = (c - cx) / W();
    for (let k = 0; k < 4; k++) {
      const nx = cx + DX[k];
      const ny = cy + DY[k];
      if (nx < 0 || ny < 0 || nx >= W() || ny >= H()) continue;
      const nb = ny * W() + nx;
      if (d[nb] >= 0) continue;
      d[nb] = d[c] + 1;
      first[nb] = c === from ? k : first[c];
      if (!hazards.has(nb)) queue.push(nb);
    }
  }
  return { d, first };
}

const turnFunction: AndroidTurn = () => {
  let me: Android | undefined;
  for (const a of world.androids) if (a.id === androidId) me = a;
  if (!me) return { type: 'android.wait' };
  const here = idx(me.position);
  const m = load(me.memory, here);
  const tiles = new Map<number, Tile>();
  for (const t of world.tiles) tiles.set(idx(t.position), t);
  const buildingAt = new Map<number, Building>();
  for (const b of world.buildings) buildingAt.set(idx(b.position), b);

  // What it sees, folded into what it remembers.
  markSeen(m, Array.from(tiles.keys()));
  const hazards = new Set(m.hazards);
  const loot = new Map(m.loot);
  const prey = new Map(m.prey);
  for (const [i, t] of tiles) {
    if (isHazard(t)) hazards.add(i);
    else hazards.delete(i);
    const n = total(t.scattered);
    if (n > 0) loot.set(i, n);
    else loot.delete(i);
    const b = buildingAt.get(i);
    if (b && b.ownerId !== me.ownerId && !b.initial && rules.buildings[b.type].salvageableByOthers && (b.complete || total(b.owed) < total(rules.buildings[b.type].cost))) {
      prey.set(i, 1 + total(b.storage) + rules.scoring.buildings[b.type]);
    } else {
      prey.delete(i);
    }
    if (b && b.ownerId === me.ownerId && b.type === 'depot') m.depot = i;
    const yield_ = harvest(t);
    if (!b && !isHazard(t) && yield_ > 0 && dist(i, m.home) <= 4 && (!m.spot || yield_ > m.spot[1] || m.spot[0] === i)) {
      m.spot = [i, yield_];
    }
    if (b && m.spot && m.spot[0] === i) m.spot = undefined;
  }
  if (m.depot !== undefined && tiles.has(m.depot)) {
    const b = buildingAt.get(m.depot);
    if (!b || b.ownerId !== me.ownerId) m.depot = undefined;
  }
  m.hazards = Array.from(hazards);
  m.loot = Array.from(loot.entries());
  m.prey = Array.from(prey.entries());

  const action = decide(me, here, m, tiles, buildingAt, hazards);
  const text = JSON.stringify(m);
  if (text.length <= rules.android.memoryLimit) action.memory = text;
  return action;
};
export default turnFunction;

function decide(me: Android, here: number, m: Memory, tiles: Map<number, Tile>, buildingAt: Map<number, Building>, hazards: Set<number>): Action {
  const building = buildingAt.get(here);
  const mine = building && building.ownerId === me.ownerId && building.complete ? building : undefined;
  const paths = search(here, hazards);
  const steps = (to: number): number => (paths.d[to] >= 0 ? paths.d[to] : dist(here, to) + 4);
  const go = (to: number): Action | undefined => {
    if (to === here || me.battery < rules.android.moveBatteryCost) return undefined;
    let k = paths.first[to];
    if (k < 0) {
      // No route around hazards: head straight for it.
      for (let j = 0; j < 4 && k < 0; j++) {
        const nx = (here % W()) + DX[j];
        const ny = Math.floor(here / W()) + DY[j];
        if (nx >= 0 && ny >= 0 && nx < W() && ny < H() && dist(ny * W() + nx, to) < dist(here, to)) k = j;
      }
    }
    return k < 0 ? undefined : { type: 'android.move', direction: DIRS[k] };
  };
  const room = rules.android.cargoCapacity - total(me.cargo);

  // Fleet: launch a sibling whenever the chargers have room.
  if (mine && rules.buildings[mine.type].androidCapacity > 0 && world.scripts.some((s) => s.id === me.scriptId)) {
    let cap = 0;
    for (const b of world.buildings) if (b.ownerId === me.ownerId && b.complete) cap += rules.buildings[b.type].androidCapacity;
    const active = world.androids.filter((a) => a.active && a.ownerId === me.ownerId).length;
    if (cap > active) return { type: 'android.launch', scriptId: me.scriptId };
  }
  // Battery: charge at home, go home before it runs out.
  const toHome = steps(m.home);
  const low = me.battery < rules.android.moveBatteryCost * (toHome + 4 + Math.ceil(toHome / 3));
  if (mine && rules.buildings[mine.type].charge > 0 && me.battery < rules.android.batteryCapacity &&
      (low || me.battery + rules.buildings[mine.type].charge <= rules.android.batteryCapacity)) {
    return { type: 'android.charge' };
  }
  if (low) {
    const step = go(m.home);
    if (step) return step;
  }
  // Standing on prey: take it apart.
  if (building && building.ownerId !== me.ownerId && !building.initial && rules.buildings[building.type].salvageableByOthers && (building.complete || total(building.owed) < total(rules.buildings[building.type].cost))) {
    return { type: 'android.salvage' };
  }
  const tile = tiles.get(here);
  if (tile && total(tile.scattered) > 0 && room > 0) return { type: 'android.collect' };

  // A depot near home, as soon as the cargo pays for it.
  const depotCost = rules.buildings.depot.cost;
  if (m.depot === undefined && covers(me.cargo, depotCost)) {
    if (!building && tile && !isHazard(tile) && dist(here, m.home) <= 2 && here !== m.home) {
      m.depot = here;
      return { type: 'android.start-construction', buildingType: 'depot', resources: costBag(depotCost) };
    }
    const step = go(m.home);
    if (step) return step;
  }
  if (m.depot !== undefined) {
    const depot = buildingAt.get(m.depot);
    if (depot && depot.ownerId === me.ownerId && !depot.complete && total(depot.owed) === 0) {
      if (here === m.depot) return { type: 'android.continue-construction' };
      const step = go(m.depot);
      if (step) return step;
    }
  }

  // An extractor of its own on the best ground it has seen, once the cargo pays for all of it.
  const site = m.site !== undefined ? buildingAt.get(m.site) : undefined;
  if (site && site.ownerId === me.ownerId && !site.complete && total(site.owed) === 0) {
    const at = idx(site.position);
    if (here === at) return { type: 'android.continue-construction' };
    const step = go(at);
    if (step) return step;
  }
  const extractorCost = rules.buildings.extractor.cost;
  if (m.depot !== undefined && m.spot && covers(me.cargo, extractorCost)) {
    if (here === m.spot[0] && !building) {
      m.site = here;
      return { type: 'android.start-construction', buildingType: 'extractor', resources: costBag(extractorCost) };
    }
    const step = go(m.spot[0]);
    if (step) return step;
  }

  const nearest = (list: [number, number][], weight: number): number | undefined => {
    let best: number | undefined;
    let bestScore = Infinity;
    for (const [i, worth] of list) {
      const score = steps(i) - weight * Math.log(1 + worth);
      if (score < bestScore) {
        best = i;
        bestScore = score;
      }
    }
    return best;
  };
  const target = nearest(m.prey, 3);
  const lootTile = room > 0 ? nearest(m.loot, 0) : undefined;

  // Bank the haul when full, or when there is nothing else to do.
  const depot = m.depot !== undefined ? buildingAt.get(m.depot) : undefined;
  if (m.depot !== undefined && total(me.cargo) > 0 && (room === 0 || (target === undefined && lootTile === undefined))) {
    if (here === m.depot && depot && depot.complete && depot.ownerId === me.ownerId) return { type: 'android.deposit' };
    const step = go(m.depot);
    if (step) return step;
  }
  if (target !== undefined) {
    const step = go(target);
    if (step) return step;
  }
  if (lootTile !== undefined) {
    const step = go(lootTile);
    if (step) return step;
  }
  // Explore: the nearest tile never seen (androids split by their id).
  let unseen: number | undefined;
  let unseenSteps = Infinity;
  const odd = Number(androidId.replace(/\D/g, '')) % 2;
  for (let i = 0; i < W() * H(); i++) {
    if (seen(m, i)) continue;
    const s = steps(i) + (((i % W()) < W() / 2 ? 0 : 1) === odd ? 0 : 3);
    if (s < unseenSteps) {
      unseen = i;
      unseenSteps = s;
    }
  }
  if (unseen !== undefined) {
    const step = go(unseen);
    if (step) return step;
  }
  // Everything seen: patrol the far corners, where the other players build.
  const corners = [0, W() - 1, (H() - 1) * W(), W() * H() - 1];
  const corner = corners[(Math.floor(turn / 20) + odd) % corners.length];
  const step = go(corner);
  return step || { type: 'android.wait' };
}
