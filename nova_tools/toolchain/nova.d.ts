// nova.d.ts: the TypeScript typings of Project: Nova android scripts.
//
// GENERATED from nova_tools.rules.models (the `rules` global) and nova_tools.engine.wire (the
// `world` global and the Action a turn returns) by nova_tools.toolchain.typings. Do not edit:
// run `nova generate` (or `python -m nova_tools.toolchain.typings --write`).
//
// This is a global script, not a module: a bare .ts file checked together with it sees these
// globals and types without importing anything.

/** The id of the android taking its turn now, e.g. 'android-3'. */
declare const androidId: string;
/**
 * The world as your android's owner sees it this turn: the visible tiles (plus the acting
 * android's own tile) and the androids, buildings and broadcasts on them. Fogged: what your
 * androids and sight buildings cannot see now is not here. Keep a map in memory if you need one.
 */
declare const world: World;
/** Every rule (number) of this game, resolved. Read these instead of copying numbers from the rulebook. */
declare const rules: Rules;
/** The round now being played, counting from 1. */
declare const turn: number;
/**
 * The round the humans are expected to land on (rules.match.finalRound), or undefined when no
 * arrival is scheduled. Nothing happens on that round; it is the deadline the colony is built to.
 */
declare const finalTurn: number | undefined;

/**
 * A script's turn function: its module's default export, called once per round; it returns
 * that round's action.
 *
 * @example
 * const act: AndroidTurn = () => ({ type: 'android.move', direction: 'east' });
 * export default act;
 * // (the rulebook names it `turn`; a module-level `turn` hides the round counter global)
 */
type AndroidTurn = () => Action;

/**
 * Printing for debugging: the lines come back with a dry-run (`nova dry-run`, the editor's
 * code lens, the MCP dry_run_turn tool). They are not kept in the game; write what the player
 * should read later into the android's `recording`.
 */
interface Console {
  log(...data: any[]): void;
  info(...data: any[]): void;
  warn(...data: any[]): void;
  error(...data: any[]): void;
  debug(...data: any[]): void;
}
// `var` and an interface, the shapes lib.dom uses, so an editor that adds the DOM library to a
// bare file merges the two declarations instead of reporting a redeclaration.
declare var console: Console;

/**
 * What a turn function returns: one action, discriminated by `type`. Every action may also
 * carry `memory` and `recording`, which replace the android's own if the action is accepted;
 * a refused action is a failed turn (rules.android.failedTurnHealthPenalty health) and keeps
 * neither.
 */
type Action =
  | WaitAction
  | MoveAction
  | ChargeAction
  | CollectAction
  | DepositAction
  | WithdrawAction
  | StartConstructionAction
  | ContinueConstructionAction
  | SalvageAction
  | RepairAction
  | BroadcastAction
  | CleanAcidAction
  | LaunchAction
  | DismantleAction;

/** The `type` of every action. */
type ActionType = Action['type'];

/** Do nothing this round. Always accepted (a safe way to write memory or recording). */
interface WaitAction {
  /** Replaces the android's memory if the action is accepted (rules.android.memoryLimit characters at most). */
  memory?: string;
  /** Replaces the android's recording if the action is accepted (rules.android.recordingLimit characters at most). */
  recording?: string;
  /** Always 'android.wait': Do nothing this round. Always accepted (a safe way to write memory or recording). */
  type: 'android.wait';
}

/**
 * Move one tile for rules.android.moveBatteryCost battery. Refused (off-map, no-battery) when the
 * tile is off the board or the battery is short.
 */
interface MoveAction {
  /** Replaces the android's memory if the action is accepted (rules.android.memoryLimit characters at most). */
  memory?: string;
  /** Replaces the android's recording if the action is accepted (rules.android.recordingLimit characters at most). */
  recording?: string;
  /** Always 'android.move': Move one tile for rules.android.moveBatteryCost battery. Refused (off-map, no-battery) when the tile is off the board or the battery is short. */
  type: 'android.move';
  /** Which way: north (y - 1), south (y + 1), east (x + 1) or west (x - 1). */
  direction: Direction;
}

/**
 * Recharge on your own completed building on this tile whose rules charge is above zero (the
 * charger): adds that much battery, capped at rules.android.batteryCapacity. Refused (no-building,
 * not-owner, not-complete, cannot-charge) anywhere else.
 */
interface ChargeAction {
  /** Replaces the android's memory if the action is accepted (rules.android.memoryLimit characters at most). */
  memory?: string;
  /** Replaces the android's recording if the action is accepted (rules.android.recordingLimit characters at most). */
  recording?: string;
  /** Always 'android.charge': Recharge on your own completed building on this tile whose rules charge is above zero (the charger): adds that much battery, capped at rules.android.batteryCapacity. Refused (no-building, not-owner, not-complete, cannot-charge) anywhere else. */
  type: 'android.charge';
}

/**
 * Pick up scattered material from this tile into cargo; without resources, as much as fits.
 * Refused (nothing-here, not-here, cargo-full) when the tile lacks it or the cargo
 * (rules.android.cargoCapacity) has no room.
 */
interface CollectAction {
  /** Replaces the android's memory if the action is accepted (rules.android.memoryLimit characters at most). */
  memory?: string;
  /** Replaces the android's recording if the action is accepted (rules.android.recordingLimit characters at most). */
  recording?: string;
  /** Always 'android.collect': Pick up scattered material from this tile into cargo; without resources, as much as fits. Refused (nothing-here, not-here, cargo-full) when the tile lacks it or the cargo (rules.android.cargoCapacity) has no room. */
  type: 'android.collect';
  /** Exactly what to pick up; omit to take what fits. */
  resources?: MaterialAmounts;
}

/**
 * Put cargo into your own completed building on this tile that accepts deposits (depot,
 * processor, acid processing plant); without resources, all of it. Refused (no-building,
 * not-owner, not-complete, no-deposit, cargo-empty, not-in-cargo) otherwise.
 */
interface DepositAction {
  /** Replaces the android's memory if the action is accepted (rules.android.memoryLimit characters at most). */
  memory?: string;
  /** Replaces the android's recording if the action is accepted (rules.android.recordingLimit characters at most). */
  recording?: string;
  /** Always 'android.deposit': Put cargo into your own completed building on this tile that accepts deposits (depot, processor, acid processing plant); without resources, all of it. Refused (no-building, not-owner, not-complete, no-deposit, cargo-empty, not-in-cargo) otherwise. */
  type: 'android.deposit';
  /** Exactly what to deposit; omit to deposit all cargo. */
  resources?: MaterialAmounts;
}

/**
 * Take stored material from your own completed building on this tile that allows withdrawals.
 * Refused (no-withdraw, not-stored, cargo-full) when it is not allowed, not stored or does not fit.
 */
interface WithdrawAction {
  /** Replaces the android's memory if the action is accepted (rules.android.memoryLimit characters at most). */
  memory?: string;
  /** Replaces the android's recording if the action is accepted (rules.android.recordingLimit characters at most). */
  recording?: string;
  /** Always 'android.withdraw': Take stored material from your own completed building on this tile that allows withdrawals. Refused (no-withdraw, not-stored, cargo-full) when it is not allowed, not stored or does not fit. */
  type: 'android.withdraw';
  /** Exactly what to take; it must be stored there and fit in cargo. */
  resources: MaterialAmounts;
}

/**
 * Place a construction site on this empty tile, paying what you supply from cargo. Refused
 * (tile-occupied, not-in-cost, more-than-cost, not-in-cargo) on an occupied tile, or for material
 * the cost does not name, more than it asks, or material you do not carry.
 */
interface StartConstructionAction {
  /** Replaces the android's memory if the action is accepted (rules.android.memoryLimit characters at most). */
  memory?: string;
  /** Replaces the android's recording if the action is accepted (rules.android.recordingLimit characters at most). */
  recording?: string;
  /** Always 'android.start-construction': Place a construction site on this empty tile, paying what you supply from cargo. Refused (tile-occupied, not-in-cost, more-than-cost, not-in-cargo) on an occupied tile, or for material the cost does not name, more than it asks, or material you do not carry. */
  type: 'android.start-construction';
  /** Which building (a key of rules.buildings). */
  buildingType: BuildingType;
  /** Material to pay now: only what the cost names, never more than it asks. */
  resources?: MaterialAmounts;
}

/**
 * Deliver material to your own site on this tile and, once it is paid for, build one tick
 * (rules.buildings[type].ticks in all). Refused (no-site, not-owner, unpaid, not-in-cost) when
 * there is no site of yours here or it still needs material and none is supplied.
 */
interface ContinueConstructionAction {
  /** Replaces the android's memory if the action is accepted (rules.android.memoryLimit characters at most). */
  memory?: string;
  /** Replaces the android's recording if the action is accepted (rules.android.recordingLimit characters at most). */
  recording?: string;
  /** Always 'android.continue-construction': Deliver material to your own site on this tile and, once it is paid for, build one tick (rules.buildings[type].ticks in all). Refused (no-site, not-owner, unpaid, not-in-cost) when there is no site of yours here or it still needs material and none is supplied. */
  type: 'android.continue-construction';
  /** Material to deliver: only what the site still owes. */
  resources?: MaterialAmounts;
}

/**
 * Damage the building on this tile (rules.salvage.ownDamage, or hostileDamage for another
 * player's); at 0 health a share of what was invested, and everything stored, is scattered here.
 * Refused (initial-charger, protected) for initial chargers and for types another player may
 * not salvage (the depot).
 */
interface SalvageAction {
  /** Replaces the android's memory if the action is accepted (rules.android.memoryLimit characters at most). */
  memory?: string;
  /** Replaces the android's recording if the action is accepted (rules.android.recordingLimit characters at most). */
  recording?: string;
  /** Always 'android.salvage': Damage the building on this tile (rules.salvage.ownDamage, or hostileDamage for another player's); at 0 health a share of what was invested, and everything stored, is scattered here. Refused (initial-charger, protected) for initial chargers and for types another player may not salvage (the depot). */
  type: 'android.salvage';
}

/**
 * Restore rules.salvage.repairAmount health to your own damaged completed building on this
 * tile, for rules.salvage.repairCost from cargo. Refused (not-damaged, not-in-cargo) at full
 * health or without the material.
 */
interface RepairAction {
  /** Replaces the android's memory if the action is accepted (rules.android.memoryLimit characters at most). */
  memory?: string;
  /** Replaces the android's recording if the action is accepted (rules.android.recordingLimit characters at most). */
  recording?: string;
  /** Always 'android.repair': Restore rules.salvage.repairAmount health to your own damaged completed building on this tile, for rules.salvage.repairCost from cargo. Refused (not-damaged, not-in-cargo) at full health or without the material. */
  type: 'android.repair';
}

/**
 * Send a public message from this tile. Refused (too-long) over rules.android.broadcastLimit
 * characters.
 */
interface BroadcastAction {
  /** Replaces the android's memory if the action is accepted (rules.android.memoryLimit characters at most). */
  memory?: string;
  /** Replaces the android's recording if the action is accepted (rules.android.recordingLimit characters at most). */
  recording?: string;
  /** Always 'android.broadcast': Send a public message from this tile. Refused (too-long) over rules.android.broadcastLimit characters. */
  type: 'android.broadcast';
  /** The text, rules.android.broadcastLimit characters at most. */
  content: string;
}

/**
 * Remove rules.android.cleanAcidAmount acid from the adjacent tile in a direction, for
 * rules.android.cleanAcidBatteryCost battery; the canister is stored in your plant. Refused
 * (no-acid-plant, no-acid, off-map, no-battery) without a completed acid processing plant, on a
 * tile with no acid, off the board, or short of battery.
 */
interface CleanAcidAction {
  /** Replaces the android's memory if the action is accepted (rules.android.memoryLimit characters at most). */
  memory?: string;
  /** Replaces the android's recording if the action is accepted (rules.android.recordingLimit characters at most). */
  recording?: string;
  /** Always 'android.clean-acid': Remove rules.android.cleanAcidAmount acid from the adjacent tile in a direction, for rules.android.cleanAcidBatteryCost battery; the canister is stored in your plant. Refused (no-acid-plant, no-acid, off-map, no-battery) without a completed acid processing plant, on a tile with no acid, off the board, or short of battery. */
  type: 'android.clean-acid';
  /** Which adjacent tile to clean. */
  direction: Direction;
}

/**
 * Launch a new android of yours on this tile, which must hold your completed charger; it acts
 * from the next round. Refused (not-on-charger, unknown-script, at-capacity) elsewhere, for a
 * script that is not yours, or when your chargers allow no more active androids.
 */
interface LaunchAction {
  /** Replaces the android's memory if the action is accepted (rules.android.memoryLimit characters at most). */
  memory?: string;
  /** Replaces the android's recording if the action is accepted (rules.android.recordingLimit characters at most). */
  recording?: string;
  /** Always 'android.launch': Launch a new android of yours on this tile, which must hold your completed charger; it acts from the next round. Refused (not-on-charger, unknown-script, at-capacity) elsewhere, for a script that is not yours, or when your chargers allow no more active androids. */
  type: 'android.launch';
  /** One of your scripts, as listed in world.scripts. */
  scriptId: string;
}

/**
 * Deactivate this android (it stays as a wreck), or with targetAndroidId another of yours while
 * standing on your completed charger. Refused (self-target, not-on-charger, bad-target) when the
 * target is itself, you are not on your charger, or it is not one of your active androids.
 */
interface DismantleAction {
  /** Replaces the android's memory if the action is accepted (rules.android.memoryLimit characters at most). */
  memory?: string;
  /** Replaces the android's recording if the action is accepted (rules.android.recordingLimit characters at most). */
  recording?: string;
  /** Always 'android.dismantle': Deactivate this android (it stays as a wreck), or with targetAndroidId another of yours while standing on your completed charger. Refused (self-target, not-on-charger, bad-target) when the target is itself, you are not on your charger, or it is not one of your active androids. */
  type: 'android.dismantle';
  /** Another of your active androids to dismantle; omit to dismantle yourself. */
  targetAndroidId?: string;
}

/** Units of each material; a material that is absent means zero. */
interface MaterialAmounts {
  /** Units of metal. */
  metal?: number;
  /** Units of electronics. */
  electronics?: number;
  /** Units of polymer. */
  polymer?: number;
  /** Units of ore. */
  ore?: number;
  /** Units of water. */
  water?: number;
  /** Units of canned acid. */
  acidCanister?: number;
}

/**
 * The world as your android's owner sees it this turn: the visible tiles (plus the acting
 * android's own tile) and what stands on them.
 */
interface World {
  /** The round now being played, counting from 1 (the same as the turn global). */
  round: number;
  /** Board width (rules.world.width). */
  width: number;
  /** Board height (rules.world.height). */
  height: number;
  /** Every tile you can see now, plus the acting android's own tile. */
  tiles: Tile[];
  /** Androids on those tiles, wrecks included. */
  androids: Android[];
  /** Buildings and construction sites on those tiles. */
  buildings: Building[];
  /** Broadcasts sent from those tiles. */
  messages: Message[];
  /** Your own scripts. */
  scripts: ScriptInfo[];
}

/** One tile of the board, as the acting android's owner can see it now. */
interface Tile {
  /** Where the tile is. */
  position: Position;
  /** Materials and hazards in the ground (not collectable directly). */
  composition: Composition;
  /** Loose material on the surface, collectable with android.collect. */
  scattered: MaterialAmounts;
  /** Ids of the players that can see this tile now. */
  revealedBy?: string[];
}

/** An android on a visible tile (wrecks included: filter on `active`). */
interface Android {
  /** The android's id, e.g. 'android-3'. */
  id: string;
  /** The player who owns it. */
  ownerId: string;
  /** The script it runs. */
  scriptId: string;
  /** The tile it stands on. */
  position: Position;
  /** Battery left; at or below 0 at a round end, the android is destroyed. */
  battery: number;
  /** Health left; at or below 0 at a round end, the android is destroyed. */
  health: number;
  /** False for a wreck: a destroyed or dismantled android, which takes no more turns. */
  active: boolean;
  /** Material it carries (rules.android.cargoCapacity units at most). */
  cargo: MaterialAmounts;
  /** Its private working state; '[Redacted]' unless it is the acting android. */
  memory: string;
  /** Its log for the player; '[Redacted]' unless it is the acting android. */
  recording: string;
}

/** A building or construction site on a visible tile. */
interface Building {
  /** The building's id, e.g. 'building-2'. */
  id: string;
  /** Its type: the key of its entry in rules.buildings. */
  type: BuildingType;
  /** The player who owns it. */
  ownerId: string;
  /** The tile it stands on. */
  position: Position;
  /** Health left; salvage takes it away, repair restores it. */
  health: number;
  /** False while it is a construction site: a site does nothing and scores nothing. */
  complete: boolean;
  /** True for a player's initial charger, which nobody can salvage. */
  initial: boolean;
  /** Continue-construction actions still needed once paid for (0 when complete). */
  remainingTicks: number;
  /** Material delivered to it so far; salvage returns a share of this. */
  invested: MaterialAmounts;
  /** Material it still needs before construction can progress. */
  owed: MaterialAmounts;
  /** Material stored in it. */
  storage: MaterialAmounts;
}

/** A public broadcast, on the tile it was sent from. */
interface Message {
  /** The round it was sent in. */
  round: number;
  /** The android that sent it. */
  androidId: string;
  /** The player whose android sent it. */
  ownerId: string;
  /** Where the sender stood. */
  position: Position;
  /** The text (rules.android.broadcastLimit characters at most). */
  content: string;
}

/** One of your own uploaded scripts, launchable with android.launch. */
interface ScriptInfo {
  /** The script id, e.g. 'script-2'. */
  id: string;
  /** The name it was uploaded under. */
  name: string;
}

/** A tile's coordinates: x grows to the east, y grows to the south, both from 0. */
interface Position {
  /** Column, from 0 (west edge) to rules.world.width - 1. */
  x: number;
  /** Row, from 0 (north edge) to rules.world.height - 1. */
  y: number;
}

/** What is in a tile's ground; a kind that is absent means zero. */
interface Composition {
  /** Natural ore an extractor on this tile harvests. */
  ore?: number;
  /** Natural water an extractor on this tile harvests. */
  water?: number;
  /** Acid: rules.android.acidDamagePerPoint health per point to an android ending a round here. */
  acid?: number;
  /** Radiation: rules.android.radiationDamagePerPoint health per point to an android ending a round here. */
  radiation?: number;
}

/** Every rule of a Nova game. `{}` is the game as it ships. */
interface Rules {
  /** The board and how a fresh one is generated. */
  world: WorldRules;
  /** Androids. */
  android: AndroidRules;
  /** Building types, by id. */
  buildings: Buildings;
  /** Salvage and repair. */
  salvage: SalvageRules;
  /** The colony readiness score. */
  scoring: ScoringRules;
  /** Budgets of one android turn. */
  script: ScriptRules;
  /** The match around the game. */
  match: MatchRules;
}

/** The board. */
interface WorldRules {
  /**
   * Number of tile columns (x runs from 0 to width - 1).
   *
   * @default 12
   */
  width: number;
  /**
   * Number of tile rows (y runs from 0 to height - 1).
   *
   * @default 12
   */
  height: number;
  /** How a fresh map is generated. */
  generation: Generation;
  /**
   * 'none': the random map of the rulebook. 'rotational': a fair map for comparing scripts: composition, pods and the first two seats' initial chargers are symmetric under a half turn about the board's centre, and on a square board under a quarter turn, so four seats start alike. Pods land in symmetric groups (2, or 4 on a square board): generation.pods.count is rounded to the nearest multiple of the group size, halves up.
   *
   * @default "none"
   */
  symmetry: 'none' | 'rotational';
}

/** Androids: what they carry, what wears them out, what their actions cost. */
interface AndroidRules {
  /**
   * Most material units an android can carry, all materials together.
   *
   * @default 12
   */
  cargoCapacity: number;
  /**
   * Most characters an android's private memory may hold, counted as a script's .length counts (an emoji is 2).
   *
   * @default 4096
   */
  memoryLimit: number;
  /**
   * Most characters an android's recording (its log for the player) may hold, counted as a script's .length counts.
   *
   * @default 16384
   */
  recordingLimit: number;
  /**
   * Most characters one broadcast message may hold, counted as a script's .length counts.
   *
   * @default 256
   */
  broadcastLimit: number;
  /**
   * Full battery; a new android starts with it and charging never exceeds it.
   *
   * @default 100
   */
  batteryCapacity: number;
  /**
   * Full health; a new android starts with it.
   *
   * @default 100
   */
  maxHealth: number;
  /**
   * Health every active android loses at each round end.
   *
   * @default 0.15
   */
  decayPerRound: number;
  /**
   * Health lost at round end per point of radiation on the android's tile.
   *
   * @default 0.75
   */
  radiationDamagePerPoint: number;
  /**
   * Health lost at round end per point of acid on the android's tile.
   *
   * @default 1.5
   */
  acidDamagePerPoint: number;
  /**
   * Health lost for a failed turn: a refused action, a script error or an exhausted budget.
   *
   * @default 10
   */
  failedTurnHealthPenalty: number;
  /**
   * Battery one move costs.
   *
   * @default 1
   */
  moveBatteryCost: number;
  /**
   * Acid one clean-acid action removes from the target tile.
   *
   * @default 1
   */
  cleanAcidAmount: number;
  /**
   * Battery one clean-acid action costs.
   *
   * @default 1
   */
  cleanAcidBatteryCost: number;
  /**
   * What an active android sees around itself (null: nothing but its own tile).
   *
   * @default {"shape": "diamond", "range": 3}
   */
  sight: Sight | null;
}

/** Every building type, by id. */
interface Buildings {
  /**
   * Charges androids and carries android capacity. Every player starts with one that cannot be salvaged.
   *
   * @default {"cost": {"metal": 10}, "ticks": 3, "androidCapacity": 2, "charge": 25} (every field not listed: as in BuildingRules)
   */
  charger: BuildingRules;
  /**
   * Safe storage: material banked here cannot be taken by a rival.
   *
   * @default {"cost": {"metal": 6}, "ticks": 2, "storage": {"deposit": true, "withdraw": true}, "salvageableByOthers": false} (every field not listed: as in BuildingRules)
   */
  depot: BuildingRules;
  /**
   * Harvests ore, water and acid from its own tile's composition into its storage.
   *
   * @default {"cost": {"metal": 8, "electronics": 1}, "ticks": 3, "storage": {"withdraw": true}, "extraction": [{"source": "ore", "material": "ore", "amount": 3}, {"source": "water", "material": "water", "amount": 2}, {"source": "acid", "material": "acidCanister", "amount": 1}]} (every field not listed: as in BuildingRules)
   */
  extractor: BuildingRules;
  /**
   * Refines ore into metal, then metal and water into electronics.
   *
   * @default {"cost": {"metal": 10, "electronics": 2}, "ticks": 4, "storage": {"deposit": true, "withdraw": true}, "conversion": [{"inputs": {"ore": 2}, "outputs": {"metal": 1}}, {"inputs": {"metal": 1, "water": 1}, "outputs": {"electronics": 1}}]} (every field not listed: as in BuildingRules)
   */
  processor: BuildingRules;
  /**
   * Lets its owner's androids clean acid, and refines canisters and water into polymer.
   *
   * @default {"cost": {"metal": 12, "electronics": 2}, "ticks": 4, "storage": {"deposit": true, "withdraw": true}, "conversion": [{"inputs": {"water": 1, "acidCanister": 1}, "outputs": {"polymer": 1}}], "cleansAcid": true} (every field not listed: as in BuildingRules)
   */
  acidProcessingPlant: BuildingRules;
  /**
   * Reveals the tiles around it (a diamond).
   *
   * @default {"cost": {"metal": 4, "electronics": 1}, "ticks": 3, "sight": {"shape": "diamond", "range": 4}} (every field not listed: as in BuildingRules)
   */
  scanner: BuildingRules;
  /**
   * Sweeps a disc of tiles around it: about twice a scanner's ground.
   *
   * @default {"cost": {"metal": 8, "electronics": 2}, "ticks": 5, "sight": {"shape": "disc", "range": 5}} (every field not listed: as in BuildingRules)
   */
  radar: BuildingRules;
  /**
   * Planned to extend broadcasts; inert for now.
   *
   * @default {"cost": {"metal": 5, "electronics": 1}, "ticks": 2} (every field not listed: as in BuildingRules)
   */
  relayTower: BuildingRules;
  /**
   * The heart of a colony, and its biggest score.
   *
   * @default {"cost": {"metal": 20, "electronics": 20, "polymer": 20}, "ticks": 10} (every field not listed: as in BuildingRules)
   */
  colonyModule: BuildingRules;
}

/** Taking buildings apart, and mending them. */
interface SalvageRules {
  /**
   * Building health one salvage action by its owner takes away.
   *
   * @default 25
   */
  ownDamage: number;
  /**
   * Building health one salvage action by another player takes away.
   *
   * @default 15
   */
  hostileDamage: number;
  /**
   * Share of the material invested that the owner's salvage scatters on the tile.
   *
   * @default 0.6
   */
  ownReturnRate: number;
  /**
   * Share of the material invested that another player's salvage scatters on the tile.
   *
   * @default 0.35
   */
  hostileReturnRate: number;
  /**
   * Building health one repair action restores.
   *
   * @default 10
   */
  repairAmount: number;
  /**
   * Cargo one repair action spends.
   *
   * @default {"metal": 1}
   */
  repairCost: Materials;
}

/** The colony readiness score. */
interface ScoringRules {
  /** Points per completed building. */
  buildings: BuildingPoints;
  /** Points per stored material unit. */
  materials: MaterialPoints;
}

/** What one android turn may spend. Exceeding any budget is a failed turn. */
interface ScriptRules {
  /**
   * Interpreter ticks a turn may spend (one tick is about 10,000 loop iterations or calls).
   *
   * @default 200
   */
  fuel: number;
  /**
   * Bytes of JavaScript heap a turn may use.
   *
   * @default 16777216
   */
  memory: number;
  /**
   * Milliseconds of CPU time (the turn's own, so a busy machine does not shorten it) before the host gives up on a turn: a last resort for the host, set high enough that fuel always runs out first (at least 4x the longest a turn of this fuel can run).
   *
   * @default 10000
   */
  timeoutMs: number;
}

/** The match around the game. */
interface MatchRules {
  /**
   * The round the humans land on (scripts read it as finalTurn), or null for no arrival date.
   *
   * @default null
   */
  finalRound: number | null;
}

/** How a fresh map is generated from the game seed. */
interface Generation {
  /** Scattered earth-launched material. */
  pods: Pods;
  /**
   * Natural ore in the ground, which extractors harvest.
   *
   * @default {"chance": 0.25, "min": 1, "max": 4}
   */
  ore: CompositionRoll;
  /**
   * Natural water in the ground, which extractors harvest.
   *
   * @default {"chance": 0.2, "min": 1, "max": 3}
   */
  water: CompositionRoll;
  /**
   * Acid in the ground: a hazard to androids standing on it, and the source of acidCanister.
   *
   * @default {"chance": 0.12, "min": 1, "max": 4}
   */
  acid: CompositionRoll;
  /**
   * Radiation: a hazard to androids standing on it.
   *
   * @default {"chance": 0.08, "min": 1, "max": 3}
   */
  radiation: CompositionRoll;
}

/** How far something sees, and with which footprint. */
interface Sight {
  /** 'diamond' counts orthogonal steps (|dx| + |dy| <= range); 'disc' uses true distance (dx^2 + dy^2 <= range^2). */
  shape: 'diamond' | 'disc';
  /** How many tiles away a tile can be and still be seen (512 sees any board whole). */
  range: number;
}

/** One building type: what it costs and what it does once completed. */
interface BuildingRules {
  /** Material the construction site must receive before it can be built. */
  cost: Materials;
  /**
   * Continue-construction actions needed, once paid for, to complete it.
   *
   * @default 1
   */
  ticks: number;
  /**
   * Full health of the building; salvage takes it away, repair restores it.
   *
   * @default 100
   */
  health: number;
  /**
   * Active androids this building lets its owner keep (the android cap).
   *
   * @default 0
   */
  androidCapacity: number;
  /**
   * Battery one charge action on this building adds (0: it cannot charge).
   *
   * @default 0
   */
  charge: number;
  /**
   * Deposits and withdrawals it accepts.
   *
   * @default {"deposit": false, "withdraw": false}
   */
  storage: Storage;
  /**
   * What it harvests from its own tile every round end.
   *
   * @default []
   */
  extraction: Extraction[];
  /**
   * Recipes run in order, each once, on its own storage every round end.
   *
   * @default []
   */
  conversion: Conversion[];
  /**
   * What it reveals once completed (null: nothing).
   *
   * @default null
   */
  sight: Sight | null;
  /**
   * Owning one completed lets the owner's androids clean acid (canisters are stored in it).
   *
   * @default false
   */
  cleansAcid: boolean;
  /**
   * Whether another player's androids may salvage it.
   *
   * @default true
   */
  salvageableByOthers: boolean;
}

/** An amount of each material; a material left out counts as zero. */
interface Materials {
  /**
   * Units of metal.
   *
   * @default 0
   */
  metal: number;
  /**
   * Units of electronics.
   *
   * @default 0
   */
  electronics: number;
  /**
   * Units of polymer.
   *
   * @default 0
   */
  polymer: number;
  /**
   * Units of ore.
   *
   * @default 0
   */
  ore: number;
  /**
   * Units of water.
   *
   * @default 0
   */
  water: number;
  /**
   * Units of canned acid (acidCanister).
   *
   * @default 0
   */
  acidCanister: number;
}

/** Readiness points per completed building of each type. */
interface BuildingPoints {
  /**
   * Points per completed charger (the initial one included).
   *
   * @default 4
   */
  charger: number;
  /**
   * Points per completed depot.
   *
   * @default 3
   */
  depot: number;
  /**
   * Points per completed extractor.
   *
   * @default 6
   */
  extractor: number;
  /**
   * Points per completed processor.
   *
   * @default 10
   */
  processor: number;
  /**
   * Points per completed acid processing plant.
   *
   * @default 12
   */
  acidProcessingPlant: number;
  /**
   * Points per completed scanner (sight earns nothing).
   *
   * @default 0
   */
  scanner: number;
  /**
   * Points per completed radar (sight earns nothing).
   *
   * @default 0
   */
  radar: number;
  /**
   * Points per completed relay tower.
   *
   * @default 0
   */
  relayTower: number;
  /**
   * Points per completed colony module.
   *
   * @default 100
   */
  colonyModule: number;
}

/** Readiness points per unit stored in a completed building of the owner. */
interface MaterialPoints {
  /**
   * Points per stored unit of metal.
   *
   * @default 1
   */
  metal: number;
  /**
   * Points per stored unit of electronics.
   *
   * @default 3
   */
  electronics: number;
  /**
   * Points per stored unit of polymer.
   *
   * @default 4
   */
  polymer: number;
  /**
   * Points per stored unit of ore.
   *
   * @default 0.5
   */
  ore: number;
  /**
   * Points per stored unit of water.
   *
   * @default 0.5
   */
  water: number;
  /**
   * Points per stored unit of acidCanister.
   *
   * @default 1
   */
  acidCanister: number;
}

/** The earth-launched material pods scattered over a fresh map. */
interface Pods {
  /**
   * How many pods land on a fresh map (one tile each; two pods may share a tile).
   *
   * @default 10
   */
  count: number;
  /**
   * What each pod holds, per material. Earth sent metal and electronics; the default never scatters 20 or more electronics on one map.
   *
   * @default {"metal": {"min": 2, "max": 6}, "electronics": {"min": 0, "max": 1}}
   */
  contents: { [K in Material]?: Roll };
}

/** How one kind of ground composition is spread over a fresh map. */
interface CompositionRoll {
  /** Probability that a tile gets any of it. */
  chance: number;
  /** Smallest amount on a tile that gets it. */
  min: number;
  /** Largest amount on a tile that gets it. */
  max: number;
}

/** Whether androids may put material into a building and take it out. */
interface Storage {
  /** Owned androids may deposit cargo here. */
  deposit: boolean;
  /** Owned androids may withdraw stored material from here. */
  withdraw: boolean;
}

/** One harvest a building makes from its own tile's composition every round end. */
interface Extraction {
  /** The composition field harvested (it is not consumed). */
  source: CompositionKind;
  /** The material stored in the building. */
  material: Material;
  /** At most this many units a round, capped by what the ground holds. */
  amount: number;
}

/** One recipe a building runs once per round end on its own storage. */
interface Conversion {
  /** Material consumed from storage when the recipe runs. */
  inputs: Materials;
  /** Material added to storage when the recipe runs. */
  outputs: Materials;
}

/** A whole number drawn uniformly between min and max, both included. */
interface Roll {
  /** The smallest value the roll can give. */
  min: number;
  /** The largest value the roll can give. */
  max: number;
}

/** A building type id: the key of its entry in rules.buildings. */
type BuildingType = 'charger' | 'depot' | 'extractor' | 'processor' | 'acidProcessingPlant' | 'scanner' | 'radar' | 'relayTower' | 'colonyModule';

/** A kind of ground composition (see Tile.composition). */
type CompositionKind = 'ore' | 'water' | 'acid' | 'radiation';

/** A compass direction: north is y - 1, south y + 1, east x + 1, west x - 1. */
type Direction = 'north' | 'south' | 'east' | 'west';

/** A material id: the key of a material in cargo, storage and costs. */
type Material = 'metal' | 'electronics' | 'polymer' | 'ore' | 'water' | 'acidCanister';
