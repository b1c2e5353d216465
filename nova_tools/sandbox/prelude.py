"""The JavaScript the sandbox runs before any script: the turn driver, and console.

It is evaluated once, when the QuickJS snapshot is taken, so every turn starts from the state it
leaves behind. It returns seven functions and an array that the host keeps handles to; they are
not reachable from ``globalThis``, and they captured the built-ins they use before any script
could patch them:

``installGame(json)`` installs ``rules`` and ``finalTurn`` (once per game, into its snapshot).
``setupTurn(text)``  installs ``androidId``, ``turn`` and ``world`` from ``text`` and the turn's
                    numbers the host wrote into ``N`` (globals.Handover makes both).
``run(ns)``         calls the module's default export and returns its output: a JSON head
                    ``{"ok": true, "droppedLogs": n, "logs": [...]}`` directly followed by the
                    returned value's JSON, or, for a turn that ended without an action, a head
                    ``{"ok": false, "kind": ..., ...}`` alone.
``armTopLevel()`` / ``disarmTopLevel()`` watch the module's top level while it is evaluated
                    into the script's image (images.py), and say whether it read or changed what a
                    turn installs.
``describe(e)``     turns a thrown value into a head ``{"ok": false, "kind": "error"|"memory"|
                    "stack", "name", "message", "what", "line", "column", "stack", "logs"}``
                    (``line``/``column``: where it was thrown in the bundle; ``stack``: the
                    error's stack text, clipped); the host words it.
``renew()``         makes the usual world's objects again (the native bench, which restores no
                    image between turns); ``N``, the turn's numbers (an Int32Array).

``console.log`` (and info/warn/error/debug) collect lines into the head's ``logs``.

This is the guest half of judging a script's output; ``output.py`` is the host half and says
why the work is split. Here: reading a thrown value or a logged one never throws past ``try``
(hostile getters, proxies, a ``toString`` that throws), and text is clipped (``MAX_WHAT_CHARS``,
``MAX_LOG_CHARS``) before it is concatenated, so an 8 MB message is described, not lost.
"""

from __future__ import annotations

import json

from ..engine.view import WORLD_KEYS
from .globals import COMMON_SHAPES, MARK_BASE, MARK_STEP, NUMBERS, VALUES

# The module's file name, as it appears in QuickJS stack traces.
SCRIPT_FILENAME = "android.js"

# Largest JSON text a turn may return (characters); the engine validates the action itself.
MAX_RESULT_CHARS = 2 * 1024 * 1024
# console output kept per turn: characters in total, and lines.
MAX_LOG_CHARS = 16 * 1024
MAX_LOG_LINES = 200
# A thrown value is worded from at most this many characters of its message (and its name).
MAX_WHAT_CHARS = 500
MAX_NAME_CHARS = 200
# ... and its stack from at most this many characters (a few dozen frames).
MAX_STACK_CHARS = 2000

# printf keys (%(name)d), since the JavaScript is full of braces.
_SOURCE = r"""
(() => {
  "use strict";
  const g = globalThis;
  const uncurry = (f) => Function.prototype.call.bind(f);
  const stringify = JSON.stringify, parse = JSON.parse, toStr = String;
  const isPrototypeOf = uncurry(Object.prototype.isPrototypeOf), ErrorProto = Error.prototype;
  const indexOf = uncurry(String.prototype.indexOf), slice = uncurry(String.prototype.slice);
  const keys = Object.keys;
  const MAX_RESULT = %(max_result)d, MAX_LOG = %(max_log)d, MAX_LINES = %(max_lines)d;
  const MAX_WHAT = %(max_what)d, MAX_NAME = %(max_name)d, MAX_STACK = %(max_stack)d;
  const FILE = %(file)s;

  // Reading what a script made may run its code (getters, proxies, toString) or meet megabytes:
  // every read is guarded, and every string is clipped before it is concatenated.
  const clip = (s, n) => s.length > n ? slice(s, 0, n) + "..." : s;
  const UNREADABLE = { __proto__: null };
  function get(o, k) {
    try { return o[k]; } catch (e) { return UNREADABLE; }
  }
  function text(v, n) {
    if (v === UNREADABLE) return "[unreadable]";
    try { return clip(typeof v === "string" ? v : toStr(v), n); } catch (e) { return "[unprintable " + typeof v + "]"; }
  }
  function isError(v) {
    try { return isPrototypeOf(ErrorProto, v); } catch (e) { return false; }
  }

  // console: lines are kept (bounded) and handed back with the turn's result.
  let logs = [], logChars = 0, dropped = 0;
  function show(v, room) {
    try {
      if (typeof v === "string") return clip(v, room);
      if (isError(v)) return text(get(v, "name"), MAX_NAME) + ": " + text(get(v, "message"), room);
      if (typeof v === "object" && v !== null) {
        const s = stringify(v);
        if (s !== undefined) return clip(s, room);
      }
      if (typeof v === "bigint") return text(v, room) + "n";
      if (typeof v === "function") return "[function " + text(get(v, "name"), MAX_NAME) + "]";
      return text(v, room);
    } catch (e) {
      return "[unprintable " + typeof v + "]";
    }
  }
  function log(...args) {
    if (logs.length >= MAX_LINES || logChars >= MAX_LOG) { dropped++; return; }
    let line = "";
    for (let i = 0; i < args.length && line.length <= MAX_LOG - logChars; i++)
      line += (i ? " " : "") + show(args[i], MAX_LOG - logChars - line.length + 1);
    line = clip(line, MAX_LOG - logChars);
    logChars += line.length;
    logs[logs.length] = line;
  }
  g.console = { log, info: log, warn: log, error: log, debug: log };

  // The output is a head, assembled by hand from null-prototype records and JSON strings (so a
  // script that defines Object.prototype.toJSON or Array.prototype.toJSON cannot reshape it),
  // followed directly by the returned value's JSON, which the host measures before decoding.
  function envelope(fields, valueJson) {
    let out = stringify(fields);
    out = slice(out, 0, out.length - 1) + ',"droppedLogs":' + dropped + ',"logs":[';
    for (let i = 0; i < logs.length; i++) out += (i ? "," : "") + stringify(logs[i]);
    out += "]}";
    return valueJson === undefined ? out : out + valueJson;
  }
  const record = (kind, extra) => {
    const r = { __proto__: null, ok: false, kind };
    const ks = keys(extra);
    for (let i = 0; i < ks.length; i++) r[ks[i]] = extra[ks[i]];
    return r;
  };

  // The globals. `rules` and `finalTurn` are the same for a whole game: installGame runs once per
  // game, into the snapshot its turns start from. setupTurn installs the rest every turn; each
  // top-level key of `world` is parsed when the script first reads it (see globals.py).
  const defineProperty = Reflect.defineProperty, TypeErrorCtor = TypeError;
  function installGame(text) {
    const v = parse(text);
    // androidId, world and turn are reserved here so the globals keep the order they always had.
    g.androidId = undefined;
    g.world = undefined;
    g.rules = v.rules;
    g.turn = undefined;
    g.finalTurn = v.finalTurn === null ? undefined : v.finalTurn;
  }
  // A world key's value is JSON.parse(s.slice(start, end)), parsed on the first read, which turns
  // the property into the plain data property it stands for. The world's usual keys get one
  // accessor each, made here once (in the snapshot) and shared by every turn, whose state (the
  // turn's text, where each key's JSON is, what was parsed) lives in these variables, set by
  // setupTurn; restoring the image gives every turn them afresh. Any other key gets its own.
  const KEYS = %(lazy_keys)s;
  let turnText, turnWorld, unread = 0;
  // own elements from the start: a write never looks along the prototype chain (where a script's
  // top level, in the image, could have put a setter) nor turns the array sparse
  const starts = [], ends = [], values = [], slots = { __proto__: null }, accessors = [];
  for (let i = 0; i < KEYS.length; i++) { starts[i] = -1; ends[i] = 0; values[i] = undefined; }
  const EAGER = { __proto__: null, value: undefined, writable: true, enumerable: true, configurable: true };
  const settle = (obj, key, value) => {
    EAGER.value = value;
    const done = defineProperty(obj, key, EAGER);
    EAGER.value = undefined;
    return done;
  };
  function shared(i) {
    const key = KEYS[i];
    const methods = {
      get() {
        if (starts[i] >= 0) {
          const value = parse(slice(turnText, starts[i], ends[i]));
          starts[i] = -1;
          values[i] = value;
          if (--unread === 0) turnText = undefined;
          settle(turnWorld, key, value);
        }
        return values[i];
      },
      set(v) {
        if (!settle(turnWorld, key, v)) throw new TypeErrorCtor("'" + key + "' is read-only");
        if (starts[i] >= 0 && --unread === 0) turnText = undefined;
        starts[i] = -1;
        values[i] = v;
      },
    };
    return { __proto__: null, get: methods.get, set: methods.set, enumerable: true, configurable: true };
  }
  for (let i = 0; i < KEYS.length; i++) { slots[KEYS[i]] = i; accessors[i] = shared(i); }
  function lazy(obj, key, text, start, end) {
    const i = slots[key];
    if (i !== undefined) {
      starts[i] = start; ends[i] = end; unread++;
      defineProperty(obj, key, accessors[i]);
      return;
    }
    let value, parsed = false;
    defineProperty(obj, key, {
      __proto__: null, enumerable: true, configurable: true,
      get() {
        if (!parsed) {
          value = parse(slice(text, start, end));
          parsed = true;
          text = undefined;
          settle(obj, key, value);
        }
        return value;
      },
      set(v) {
        if (!settle(obj, key, v)) throw new TypeErrorCtor("'" + key + "' is read-only");
        parsed = true;
        value = v;
        text = undefined;
      },
    });
  }
  // The turn's numbers, written by the host into this array's memory before setupTurn (found by
  // the mark written here: guest.py): N[0] says how the turn is handed over (1: by these numbers,
  // 0: by a JSON head in the text). With numbers, the text is androidId followed by the lazy
  // world keys' texts, and N holds androidId's length, turn, the world's shape (-1: no world; else
  // bit i set when KEYS[i] is lazy), which eager keys are an empty list, and per key its text's
  // length (lazy) or value (an eager integer). No number is parsed.
  const N = new Int32Array(%(numbers)d);
  for (let i = 0; i < N.length; i++) N[i] = Math.imul(i + 1, %(mark_step)d) ^ %(mark_base)d;
  // The usual world (exactly the keys KEYS, in order) is one of the objects made here, in the
  // snapshot: one per common shape, its lazy keys already the shared accessors and its eager ones
  // data properties, so a turn only fills it in (restoring the image gives every turn them
  // unfilled). A shape not made here, or one already handed out in this state (no image restored
  // since: the native bench, which calls renew between turns instead), is made for the turn.
  const SHAPES = %(shapes)s;
  const worlds = { __proto__: null }, handed = { __proto__: null };
  function blank(shape) {
    const w = {};
    for (let i = 0; i < KEYS.length; i++)
      if (shape & (1 << i)) defineProperty(w, KEYS[i], accessors[i]);
      else settle(w, KEYS[i], undefined);
    return w;
  }
  function renew() {
    for (let i = 0; i < SHAPES.length; i++) { worlds[SHAPES[i]] = blank(SHAPES[i]); handed[SHAPES[i]] = false; }
  }
  renew();
  function usual(shape, empties, s, at) {
    let world = worlds[shape];
    if (world === undefined || handed[shape]) world = blank(shape);
    else handed[shape] = true;
    turnWorld = world;
    turnText = s;
    let l = 0;
%(fill)s
    unread = l;
    if (l === 0) turnText = undefined;
    return world;
  }
  // s = <length of head> ":" head world-texts...; head = [androidId, turn, world keys, eager],
  // where the world keys are [key, length] pairs (length -1: the value is eager's next item), or
  // null when there is no world.
  function fromHead(s) {
    const colon = indexOf(s, ":");
    const start = colon + 1, end = start + +slice(s, 0, colon);
    const head = parse(slice(s, start, end));
    const keys = head[2];
    let world;
    if (keys !== null) {
      world = {};
      turnWorld = world;
      turnText = s;
      const eager = head[3];
      let at = end, next = 0;
      for (let i = 0; i < keys.length; i += 2) {
        const length = keys[i + 1];
        if (length < 0) { settle(world, keys[i], eager[next++]); continue; }
        lazy(world, keys[i], s, at, at + length);
        at += length;
      }
      if (unread === 0) turnText = undefined;
    }
    g.androidId = head[0];
    g.world = world;
    g.turn = head[1];
  }
  function setupTurn(s) {
    if (N[0] !== 1) return fromHead(s);
    const idEnd = N[1], shape = N[3];
    const world = shape < 0 ? undefined : usual(shape, N[4], s, idEnd);
    g.androidId = slice(s, 0, idEnd);
    g.world = world;
    g.turn = N[2];
  }

  // Evaluating the module once (images.py): its top level runs into the script's image, before
  // any turn's globals exist, so it must not be able to tell. While it runs (and its promise
  // jobs), androidId, world and turn are tripwires, accessors that note any read or write, and so
  // are the functions that tell an accessor from a data property without reading it. A tripped
  // wire, or one the top level deleted, redefined or froze, means the top level runs every turn
  // instead, as it always did. disarmTopLevel puts back what armTopLevel replaced, and says
  // whether no wire tripped (1) or one did (0).
  const hasOwn = uncurry(Object.prototype.hasOwnProperty), getOwn = Reflect.getOwnPropertyDescriptor;
  const TURN_KEYS = ["androidId", "world", "turn"];
  const WATCHED = [
    [Object, "getOwnPropertyDescriptor"], [Object, "getOwnPropertyDescriptors"],
    [Reflect, "getOwnPropertyDescriptor"], [Object.prototype, "__lookupGetter__"],
    [Object.prototype, "__lookupSetter__"],
  ];
  let tripped = false, wires = [];
  function wire(obj, key, value) {
    const was = getOwn(obj, key);
    const saved = { __proto__: null, value: was.value, writable: was.writable, enumerable: was.enumerable, configurable: was.configurable };
    const w = {
      __proto__: null, obj, key, saved,
      get: function () { tripped = true; return value; },
      set: function (v) { tripped = true; },
    };
    defineProperty(obj, key, { __proto__: null, get: w.get, set: w.set, enumerable: was.enumerable, configurable: true });
    wires[wires.length] = w;
  }
  function armTopLevel() {
    tripped = false;
    wires = [];
    for (let i = 0; i < TURN_KEYS.length; i++) wire(g, TURN_KEYS[i], undefined);
    for (let i = 0; i < WATCHED.length; i++) wire(WATCHED[i][0], WATCHED[i][1], WATCHED[i][0][WATCHED[i][1]]);
  }
  function disarmTopLevel() {
    let clean = true;
    for (let i = 0; i < wires.length; i++) {
      const w = wires[i], d = getOwn(w.obj, w.key);
      if (d === undefined || !hasOwn(d, "get") || d.get !== w.get || d.set !== w.set || !d.configurable) clean = false;
      else if (!defineProperty(w.obj, w.key, w.saved)) clean = false;
    }
    wires = [];
    return clean && !tripped ? 1 : 0;
  }

  function run(ns) {
    const turn = ns.default;
    if (turn === undefined) return envelope(record("no-action", { got: "no-default" }));
    if (typeof turn !== "function") return envelope(record("no-action", { got: "not-function", type: typeof turn }));
    const value = turn();
    const type = typeof value;
    if (value === undefined || type === "function" || type === "symbol")
      return envelope(record("no-action", { got: type }));
    if (type === "object" && value !== null && typeof value.then === "function")
      return envelope(record("no-action", { got: "promise" }));
    let json;
    try {
      json = stringify(value);
    } catch (e) {
      const d = details(e);
      if (d.kind !== "error") throw e;  // out of memory / stack: report it as such
      return envelope(record("not-json", { what: d.what }));
    }
    if (json === undefined) return envelope(record("no-action", { got: type }));
    if (json.length > MAX_RESULT) return envelope(record("too-big", { size: json.length }));
    return envelope({ __proto__: null, ok: true }, json);
  }

  function details(e) {
    const d = record("error", { what: "", name: null, message: null, line: null, column: null, stack: null });
    if (isError(e)) {
      const name = text(get(e, "name"), MAX_NAME), message = text(get(e, "message"), MAX_WHAT);
      d.name = name; d.message = message;
      d.what = clip(message ? name + ": " + message : name, MAX_WHAT);
      if (name === "InternalError" && message === "out of memory") d.kind = "memory";
      else if (name === "RangeError" && indexOf(message, "call stack") >= 0) d.kind = "stack";
      const stack = get(e, "stack");
      // the frames, for the host to map to the player's files (results.py reads them)
      if (typeof stack === "string") d.stack = clip(stack, MAX_STACK);
      let at = typeof stack === "string" ? indexOf(stack, FILE + ":") : -1;
      if (at >= 0) {
        at += FILE.length + 1;
        let line = 0, column = 0, i = at;
        while (i < at + 10 && stack[i] >= "0" && stack[i] <= "9") line = line * 10 + +stack[i++];
        const c = i + 1;
        if (stack[i] === ":") { i++; while (i < c + 10 && stack[i] >= "0" && stack[i] <= "9") column = column * 10 + +stack[i++]; }
        if (i > at) { d.line = line; d.column = column || null; }
      }
    } else {
      let shown;
      try { shown = typeof e === "string" || (typeof e === "object" && e !== null) ? stringify(e) : undefined; } catch (x) {}
      d.what = typeof shown === "string" ? clip(shown, MAX_WHAT) : text(e, MAX_WHAT);
    }
    return d;
  }

  function describe(e) {
    return envelope(details(e));
  }

  return [installGame, setupTurn, run, describe, armTopLevel, disarmTopLevel, renew, N];
})()
"""
PRELUDE = _SOURCE % {
    "max_result": MAX_RESULT_CHARS,
    "max_log": MAX_LOG_CHARS,
    "max_lines": MAX_LOG_LINES,
    "max_what": MAX_WHAT_CHARS,
    "max_name": MAX_NAME_CHARS,
    "max_stack": MAX_STACK_CHARS,
    "file": '"' + SCRIPT_FILENAME + '"',
    "lazy_keys": json.dumps(list(WORLD_KEYS)),
    "numbers": NUMBERS,
    "mark_step": MARK_STEP,
    "mark_base": MARK_BASE,
    "shapes": json.dumps(list(COMMON_SHAPES)),
    "fill": "\n".join(
        f"    if (shape & {1 << i}) {{ starts[{i}] = at; at += N[{VALUES + i}];"
        f" ends[{i}] = at; l++; }}"
        f" else world.{key} = empties & {1 << i} ? [] : N[{VALUES + i}];"
        for i, key in enumerate(WORLD_KEYS)
    ),
}
