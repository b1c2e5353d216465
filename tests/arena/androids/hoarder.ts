// A short-game specialist: two androids grab every loose unit they can see, build one depot as
// soon as they carry its cost and bank everything in it. No extractors, no plan beyond that:
// over a few dozen rounds it banks more than a builder that invests in an economy.

type Memory = { depot?: [number, number]; seen: Record<string, number>; waypoint?: number };

const me = () => world.androids.find((a) => a.id === androidId)!;
const sum = (m: MaterialAmounts) => Object.values(m).reduce((s: number, n) => s + (n ?? 0), 0);
const key = (x: number, y: number) => `${x},${y}`;
const tileAt = (x: number, y: number) => world.tiles.find((t) => t.position.x === x && t.position.y === y);
const buildingAt = (x: number, y: number) => world.buildings.find((b) => b.position.x === x && b.position.y === y);
const hazard = (x: number, y: number) => {
  const t = tileAt(x, y);
  return !!t && ((t.composition.acid ?? 0) > 0 || (t.composition.radiation ?? 0) > 0);
};
const STEPS: [Direction, number, number][] = [['north', 0, -1], ['south', 0, 1], ['west', -1, 0], ['east', 1, 0]];

/** The first step of the cheapest path to (tx, ty): a hazard tile costs 4 steps, except the target. */
function toward(x: number, y: number, tx: number, ty: number): Action {
  const w = world.width, h = world.height;
  const cost = new Array<number>(w * h).fill(Infinity);
  const first = new Array<number>(w * h).fill(-1);
  cost[y * w + x] = 0;
  const open = [y * w + x];
  while (open.length > 0) {
    open.sort((a, b) => cost[b] - cost[a]);
    const at = open.pop()!;
    const ax = at % w, ay = Math.floor(at / w);
    if (ax === tx && ay === ty) break;
    STEPS.forEach(([, dx, dy], i) => {
      const nx = ax + dx, ny = ay + dy;
      if (nx < 0 || ny < 0 || nx >= w || ny >= h) return;
      const next = ny * w + nx;
      const c = cost[at] + (hazard(nx, ny) && !(nx === tx && ny === ty) ? 4 : 1);
      if (c < cost[next]) {
        if (cost[next] === Infinity) open.push(next);
        cost[next] = c;
        first[next] = at === y * w + x ? i : first[at];
      }
    });
  }
  const step = first[ty * w + tx];
  return step < 0 ? { type: 'android.wait' } : { type: 'android.move', direction: STEPS[step][0] };
}

const hoard: AndroidTurn = () => {
  const self = me();
  const mem: Memory = self.memory ? JSON.parse(self.memory) : { seen: {} };
  for (const t of world.tiles) {
    const units = sum(t.scattered);
    if (units > 0) mem.seen[key(t.position.x, t.position.y)] = units;
    else delete mem.seen[key(t.position.x, t.position.y)];
  }
  const { x, y } = self.position;
  const here = buildingAt(x, y);
  const carried = sum(self.cargo);
  const full = carried >= rules.android.cargoCapacity;
  const act = (action: Action): Action => ({ ...action, memory: JSON.stringify(mem) });
  const mine = (b: Building | undefined) => !!b && b.ownerId === self.ownerId;

  const siblings = world.androids.filter((a) => a.ownerId === self.ownerId && a.active).length;
  if (mine(here) && here!.type === 'charger' && here!.complete && turn <= 2 && siblings < rules.buildings.charger.androidCapacity) {
    return act({ type: 'android.launch', scriptId: self.scriptId });
  }
  if (mine(here) && !here!.complete) {
    const owed = here!.owed.metal ?? 0;
    const pay = Math.min(owed, self.cargo.metal ?? 0);
    if (owed > 0 && pay === 0) return act(toward(x, y, x + 1, y));
    return act({ type: 'android.continue-construction', ...(pay > 0 ? { resources: { metal: pay } } : {}) });
  }
  if (mine(here) && here!.type === 'depot' && here!.complete && carried > 0) return act({ type: 'android.deposit' });
  const loose = tileAt(x, y);
  if (loose && sum(loose.scattered) > 0 && !full) return act({ type: 'android.collect' });
  const depotCost = rules.buildings.depot.cost.metal ?? 0;
  const depotKnown = mem.depot || world.buildings.find((b) => mine(b) && b.type === 'depot');
  if (!depotKnown && (self.cargo.metal ?? 0) >= depotCost && !here && !hazard(x, y)) {
    mem.depot = [x, y];
    return act({ type: 'android.start-construction', buildingType: 'depot', resources: { metal: depotCost } });
  }
  const depot = mem.depot;
  const targets = Object.keys(mem.seen).map((k) => k.split(',').map(Number) as [number, number]);
  if (depot && (full || (targets.length === 0 && carried > 0))) return act(toward(x, y, depot[0], depot[1]));
  if (!full && targets.length > 0) {
    targets.sort((a, b) => Math.abs(a[0] - x) + Math.abs(a[1] - y) - (Math.abs(b[0] - x) + Math.abs(b[1] - y)));
    return act(toward(x, y, targets[0][0], targets[0][1]));
  }
  // explore: visit the four quarters of the board in turn, siblings going opposite ways round
  const quarters: [number, number][] = [
    [Math.floor(world.width / 4), Math.floor(world.height / 4)],
    [Math.floor((3 * world.width) / 4), Math.floor(world.height / 4)],
    [Math.floor((3 * world.width) / 4), Math.floor((3 * world.height) / 4)],
    [Math.floor(world.width / 4), Math.floor((3 * world.height) / 4)],
  ];
  const odd = Number(self.id.replace(/\D/g, '')) % 2 === 1;
  let w = mem.waypoint ?? (odd ? 0 : 2);
  let goal = quarters[((w % 4) + 4) % 4];
  if (Math.abs(goal[0] - x) + Math.abs(goal[1] - y) <= 1) {
    w += odd ? 1 : -1;
    goal = quarters[((w % 4) + 4) % 4];
  }
  mem.waypoint = w;
  return act(toward(x, y, goal[0], goal[1]));
};

export default hoard;
