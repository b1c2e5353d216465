// api.ts: the types of the JSON the lab's endpoints answer with.
//
// GENERATED from nova_tools.api's result models and nova_tools.lab.wire by nova_tools.lab.typegen.
// Do not edit: run `python -m nova_tools.lab.build` (or `python -m nova_tools.lab.typegen --write`).

/** A recorded game frame by frame, compactly: the board after setup, after every round (and with ``per_turn`` after every turn), each frame given as its changes. With ``player``, the board as that player saw it: the tiles they saw, what stood on them, and their own things wherever they were. */
export interface Timeline {
  player: string | null;
  width: number;
  height: number;
  finalTurn: number | null;
  lastRound: number;
  perTurn: boolean;
  frames: FrameChange[];
}

/** An android at one moment of a recorded game, with its last turn up to then. */
export interface AndroidMoment {
  id: string;
  ownerId: string;
  scriptId: string;
  position: Position;
  battery: number;
  health: number;
  active: boolean;
  cargo: Record<string, number>;
  memory: string;
  recording: string;
  round: number;
  turn: number | null;
  lastTurn: TurnSummary | null;
}

/** ``nova status --json``: ``{"round", "finalTurn", "players": [...]}``, and for a peer match's file its ``match`` account (docs/matches.md). */
export interface Status {
  round: number;
  finalTurn: number | null;
  players: Standing[];
  match?: Record<string, unknown> | null;
}

/** ``nova events --json``: ``{"total", "offset", "limit", "events", "logLength"}``; each event is as the game file holds it (docs/game-file.md) plus its ``index`` in the whole log and its ``text``, the line `nova events` prints for it. */
export interface EventsPage {
  total: number;
  offset: number;
  limit: number;
  events: Record<string, unknown>[];
  logLength: number;
}

/** Enough to tell games apart in a list. */
export interface GameSummary {
  round: number;
  finalTurn: number | null;
  width: number;
  height: number;
  players: string[];
  activeAndroids: number;
}

/** ``nova league table --json``: ``{"entries": [{"name", "rating", "games", "wins", "meanScore", ...}]}`` in rank order. */
export interface LeagueTable {
  games: number;
  entries: LeagueStanding[];
  rating: string;
}

/** A page of a league's games (those of one entry, when it is named). */
export interface LeagueGames {
  entry: string | null;
  total: number;
  offset: number;
  games: LeagueGame[];
}

/** Every rule of a Nova game. `{}` is the game as it ships. */
export interface Rules {
  world: WorldRules;
  android: AndroidRules;
  buildings: Buildings;
  salvage: SalvageRules;
  scoring: ScoringRules;
  script: ScriptRules;
  match: MatchRules;
}

/** Every refused request: one sentence that says what and where. */
export interface Problem {
  error: string;
}

export interface LabInfo {
  root: string;
  version: string;
  starter: string;
}

export interface GameList {
  games: GameListing[];
}

/** The leagues in the root (``NAME.league`` files, kept by ``nova league``). */
export interface LeagueList {
  leagues: LeagueSummary[];
}

/** The android scripts under the root (``.ts`` entry files), as paths relative to it. */
export interface ScriptList {
  starter: string;
  house: string[];
  scripts: string[];
  truncated: boolean;
}

/** One thing a job reports: progress, a notice, the address it listens on, its end. */
export interface JobEvent {
  seq: number;
  kind: 'started' | 'progress' | 'notice' | 'listening' | 'done' | 'failed' | 'cancelled';
  message: string;
  done?: number | null;
  total?: number | null;
  verified?: number | null;
  url?: string | null;
  result?: Record<string, unknown> | null;
}

export interface JobView {
  id: string;
  kind: 'run' | 'host' | 'join' | 'compare' | 'tournament';
  title: string;
  state: 'running' | 'done' | 'failed' | 'cancelled';
  events: JobEvent[];
}

export interface JobStarted {
  id: string;
  kind: 'run' | 'host' | 'join' | 'compare' | 'tournament';
}

/** The result of a run: the game file written, and its scores. */
export interface RunOutcome {
  name: string;
  rounds: number;
  finalTurn: number | null;
  seconds: number;
  players: Standing[];
}

/** The result of a match, host or joiner side (the ``match`` account of docs/matches.md). */
export interface MatchOutcome {
  name: string;
  outcome: string;
  verified: boolean;
  sentence: string;
  role: string;
  player: string;
  opponent: string;
  rounds: number;
  size: string;
  disclosure: string;
  status: Status;
}

/** The Arena page's comparison: ``nova compare --json`` as it is, and its kind. */
export interface CompareOutcome {
  games: number;
  planned: number;
  complete: boolean;
  draws: number;
  rounds: number;
  seeds: number[];
  map: MapShape;
  warnings: string[];
  results: GameResult[];
  timing: Timing;
  scripts: ScriptTotals[];
  difference: Difference | null;
  verdict: string;
  mostDifferent: SeedGap[];
  kind: 'compare';
}

/** The Arena page's tournament: ``nova tournament --json`` as it is, and its kind. */
export interface TournamentOutcome {
  games: number;
  planned: number;
  complete: boolean;
  draws: number;
  rounds: number;
  seeds: number[];
  map: MapShape;
  warnings: string[];
  results: GameResult[];
  timing: Timing;
  ranking: RankedScript[];
  pairs: PairTotals[];
  kind: 'tournament';
}

export interface RunRequest {
  name: string;
  seats: SeatRequest[];
  seed?: number;
  width?: number;
  height?: number;
  rounds?: number;
  force?: boolean;
}

export interface HostRequest {
  name: string;
  player: string;
  script: string;
  rounds?: number;
  sizes?: string | null;
  disclosure?: 'full' | 'recording';
  force?: boolean;
}

export interface JoinRequest {
  name: string;
  url: string;
  player: string;
  script: string;
  size?: string | null;
  force?: boolean;
}

export interface ArenaRequest {
  kind: 'compare' | 'tournament';
  scripts: string[];
  seeds?: string;
  rounds?: number;
  jobs?: number;
}

/** One frame of a :class:`Timeline`, as what changed since the frame before it (the first frame: since an empty board). Applying the changes in order gives every frame whole. */
export interface FrameChange {
  round: number;
  turn: number | null;
  tiles: VisibleTile[];
  tilesGone: Position[];
  androids: AndroidState[];
  androidsGone: string[];
  buildings: BuildingState[];
  buildingsGone: string[];
  players?: FrameScore[] | null;
  events: number;
}

export interface Position {
  x: number;
  y: number;
}

/** One android's turn as the log keeps it: the action (without its memory and recording, which the android itself shows), and how the engine judged it. */
export interface TurnSummary {
  round: number;
  action: Record<string, unknown> | null;
  outcome: 'accepted' | 'refused' | 'invalid' | 'error';
  code: string | null;
  reason: string | null;
  ticks: number;
}

/** One player's colony readiness, where it comes from, and their androids. */
export interface Standing {
  id: string;
  score: number;
  breakdown: ScoreLine[];
  activeAndroids: number;
  wrecks: number;
}

/** One entry's place in the league table. */
export interface LeagueStanding {
  rank: number;
  name: string;
  rating: number;
  mu: number;
  sigma: number;
  games: number;
  wins: number;
  draws: number;
  losses: number;
  meanScore: number | null;
  source: string;
  sha256: string;
  against: HeadToHead[];
}

/** One game of a league: the seed, the entries in seat order and their scores. */
export interface LeagueGame {
  seed: number;
  rounds: number;
  seats: string[];
  scores: number[];
  winner: string | null;
  stateHash: string;
  finished: string;
}

/** The board. */
export interface WorldRules {
  width: number;
  height: number;
  generation: Generation;
  symmetry: 'none' | 'rotational';
}

/** Androids: what they carry, what wears them out, what their actions cost. */
export interface AndroidRules {
  cargoCapacity: number;
  memoryLimit: number;
  recordingLimit: number;
  broadcastLimit: number;
  batteryCapacity: number;
  maxHealth: number;
  decayPerRound: number;
  radiationDamagePerPoint: number;
  acidDamagePerPoint: number;
  failedTurnHealthPenalty: number;
  moveBatteryCost: number;
  cleanAcidAmount: number;
  cleanAcidBatteryCost: number;
  sight?: Sight | null;
}

/** Every building type, by id. */
export interface Buildings {
  charger: BuildingRules;
  depot: BuildingRules;
  extractor: BuildingRules;
  processor: BuildingRules;
  acidProcessingPlant: BuildingRules;
  scanner: BuildingRules;
  radar: BuildingRules;
  relayTower: BuildingRules;
  colonyModule: BuildingRules;
}

/** Taking buildings apart, and mending them. */
export interface SalvageRules {
  ownDamage: number;
  hostileDamage: number;
  ownReturnRate: number;
  hostileReturnRate: number;
  repairAmount: number;
  repairCost: Materials;
}

/** The colony readiness score. */
export interface ScoringRules {
  buildings: BuildingPoints;
  materials: MaterialPoints;
}

/** What one android turn may spend. Exceeding any budget is a failed turn. */
export interface ScriptRules {
  fuel: number;
  memory: number;
  timeoutMs: number;
}

/** The match around the game. */
export interface MatchRules {
  finalRound?: number | null;
}

/** A game file under the root, with enough to pick it: round, players, scores. */
export interface GameListing {
  name: string;
  modified: number;
  kind: 'game' | 'record' | 'unreadable';
  summary?: GameSummary | null;
  status?: Status | null;
  problem?: string | null;
}

/** A league file in a folder: its name (the file without .league), entries and games, or why it cannot be read. */
export interface LeagueSummary {
  name: string;
  entries: number;
  games: number;
  problem?: string | null;
}

export interface MapShape {
  width: number;
  height: number;
  symmetry: string;
}

/** One game: the seed, the scripts in seat order, their scores. */
export interface GameResult {
  seed: number;
  seats: string[];
  scores: number[];
  winner: string | null;
  failedTurns: number[];
  stateHash: string;
  file?: string | null;
  margin?: number | null;
  firstExtractor?: (number | null)[] | null;
  firstCharger?: (number | null)[] | null;
  failedByReason?: Record<string, number>[] | null;
  game?: string | null;
  players?: string[] | null;
}

/** How long the run took and where: everything that may differ between two runs. */
export interface Timing {
  seconds: number;
  where: string;
  workers: number;
  gameSecondsMedian: number | null;
  gameSecondsMax: number | null;
}

/** How one script did over the games it played. */
export interface ScriptTotals {
  name: string;
  games: number;
  wins: number;
  draws: number;
  losses: number;
  meanScore: number | null;
  seatMeanScores: (number | null)[];
  turns: number;
  failedTurns: number;
  failedTurnsByReason: Record<string, number>;
}

/** A's score minus B's per seed (averaged over both seat orders), with its 95% interval. */
export interface Difference {
  of: string;
  mean: number;
  low: number;
  high: number;
  level: number;
  seeds: number;
  excludesZero: boolean;
}

export interface SeedGap {
  seed: number;
  difference: number;
  scores: number[][];
}

/** A tournament's standing: the script's rating (openskill's ordinal), mu and sigma. */
export interface RankedScript {
  name: string;
  games: number;
  wins: number;
  draws: number;
  losses: number;
  meanScore: number | null;
  seatMeanScores: (number | null)[];
  turns: number;
  failedTurns: number;
  failedTurnsByReason: Record<string, number>;
  rating: number;
  mu: number;
  sigma: number;
}

export interface PairTotals {
  scripts: string[];
  wins: number[];
  draws: number;
  meanScores: (number | null)[];
}

export interface SeatRequest {
  player: string;
  script: string;
}

export interface VisibleTile {
  position: Position;
  composition: Record<string, number>;
  scattered: Record<string, number>;
  revealedBy: string[];
}

/** An android as anyone who sees it sees it (no memory, no recording). */
export interface AndroidState {
  id: string;
  ownerId: string;
  scriptId: string;
  position: Position;
  battery: number;
  health: number;
  active: boolean;
  cargo: Record<string, number>;
}

export interface BuildingState {
  id: string;
  type: string;
  ownerId: string;
  position: Position;
  health: number;
  complete: boolean;
  initial: boolean;
  remainingTicks: number;
  invested: Record<string, number>;
  owed: Record<string, number>;
  storage: Record<string, number>;
}

export interface FrameScore {
  id: string;
  seat: number;
  score: number;
  breakdown: ScoreLine[];
}

export interface ScoreLine {
  source: string;
  points: number;
}

/** One entry's record against one other entry, in the games between them. */
export interface HeadToHead {
  opponent: string;
  games: number;
  wins: number;
  draws: number;
  losses: number;
  meanScore: number | null;
  opponentMeanScore: number | null;
}

/** How a fresh map is generated from the game seed. */
export interface Generation {
  pods: Pods;
  ore: CompositionRoll;
  water: CompositionRoll;
  acid: CompositionRoll;
  radiation: CompositionRoll;
}

/** How far something sees, and with which footprint. */
export interface Sight {
  shape: 'diamond' | 'disc';
  range: number;
}

/** One building type: what it costs and what it does once completed. */
export interface BuildingRules {
  cost: Materials;
  ticks: number;
  health: number;
  androidCapacity: number;
  charge: number;
  storage: Storage;
  extraction: Extraction[];
  conversion: Conversion[];
  sight?: Sight | null;
  cleansAcid: boolean;
  salvageableByOthers: boolean;
}

/** An amount of each material; a material left out counts as zero. */
export interface Materials {
  metal: number;
  electronics: number;
  polymer: number;
  ore: number;
  water: number;
  acidCanister: number;
}

/** Readiness points per completed building of each type. */
export interface BuildingPoints {
  charger: number;
  depot: number;
  extractor: number;
  processor: number;
  acidProcessingPlant: number;
  scanner: number;
  radar: number;
  relayTower: number;
  colonyModule: number;
}

/** Readiness points per unit stored in a completed building of the owner. */
export interface MaterialPoints {
  metal: number;
  electronics: number;
  polymer: number;
  ore: number;
  water: number;
  acidCanister: number;
}

/** The earth-launched material pods scattered over a fresh map. */
export interface Pods {
  count: number;
  contents: Record<string, Roll>;
}

/** How one kind of ground composition is spread over a fresh map. */
export interface CompositionRoll {
  chance: number;
  min: number;
  max: number;
}

/** Whether androids may put material into a building and take it out. */
export interface Storage {
  deposit: boolean;
  withdraw: boolean;
}

/** One harvest a building makes from its own tile's composition every round end. */
export interface Extraction {
  source: 'ore' | 'water' | 'acid' | 'radiation';
  material: 'metal' | 'electronics' | 'polymer' | 'ore' | 'water' | 'acidCanister';
  amount: number;
}

/** One recipe a building runs once per round end on its own storage. */
export interface Conversion {
  inputs: Materials;
  outputs: Materials;
}

/** A whole number drawn uniformly between min and max, both included. */
export interface Roll {
  min: number;
  max: number;
}

/** The letter each building type is drawn with, on every board. */
export const BUILDING_LETTERS: Record<string, string> = { charger: "C", depot: "D", extractor: "E", processor: "P", acidProcessingPlant: "A", scanner: "S", radar: "R", relayTower: "T", colonyModule: "M" };
/** The action fields in which an android keeps its notes. */
export const NOTES: readonly string[] = ["memory", "recording"];
