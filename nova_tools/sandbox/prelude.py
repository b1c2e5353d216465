"""The JavaScript the sandbox runs before any script: the turn driver, and console.

It is evaluated once, when the QuickJS snapshot is taken, so every turn starts from the state it
leaves behind. It returns three functions that the host keeps handles to; they are not reachable
from ``globalThis``, and they captured the built-ins they use before any script could patch them:

``setup(json)``     parses the globals object and installs the turn globals.
``run(ns)``         calls the module's default export and returns a JSON envelope
                    ``{"ok": true, "value": ..., "logs": [...]}`` or, for a turn that ended
                    without an action, ``{"ok": false, "kind": ..., ...}``.
``describe(e)``     turns a thrown value into ``{"ok": false, "kind": "error"|"memory"|"stack",
                    "name", "message", "what", "line", "column", "logs"}``; the host words it.

``console.log`` (and info/warn/error/debug) collect lines into the envelope's ``logs``.
"""

from __future__ import annotations

# The module's file name, as it appears in QuickJS stack traces.
SCRIPT_FILENAME = "android.js"

# Largest JSON text a turn may return (characters); the engine validates the action itself.
MAX_RESULT_CHARS = 2 * 1024 * 1024
# console output kept per turn: characters in total, and lines.
MAX_LOG_CHARS = 16 * 1024
MAX_LOG_LINES = 200

PRELUDE = r"""
(() => {
  "use strict";
  const g = globalThis;
  const uncurry = (f) => Function.prototype.call.bind(f);
  const stringify = JSON.stringify, parse = JSON.parse, toStr = String;
  const ErrorCtor = Error;
  const indexOf = uncurry(String.prototype.indexOf), slice = uncurry(String.prototype.slice);
  const keys = Object.keys;
  const MAX_RESULT = %(max_result)d, MAX_LOG = %(max_log)d, MAX_LINES = %(max_lines)d;
  const FILE = %(file)s;

  // console: lines are kept (bounded) and handed back with the turn's result.
  let logs = [], logChars = 0, dropped = 0;
  function show(v) {
    try {
      if (typeof v === "string") return v;
      if (v instanceof ErrorCtor) return toStr(v.name) + ": " + toStr(v.message);
      if (typeof v === "object" && v !== null) {
        const s = stringify(v);
        if (s !== undefined) return s;
      }
      if (typeof v === "bigint") return toStr(v) + "n";
      if (typeof v === "function") return "[function " + toStr(v.name) + "]";
      return toStr(v);
    } catch (e) {
      return "[unprintable " + typeof v + "]";
    }
  }
  function log(...args) {
    if (logs.length >= MAX_LINES || logChars >= MAX_LOG) { dropped++; return; }
    let line = "";
    for (let i = 0; i < args.length; i++) line += (i ? " " : "") + show(args[i]);
    if (line.length > MAX_LOG - logChars) line = slice(line, 0, MAX_LOG - logChars) + "...";
    logChars += line.length;
    logs[logs.length] = line;
  }
  g.console = { log, info: log, warn: log, error: log, debug: log };

  // The envelope is assembled by hand from null-prototype records and JSON strings, so a script
  // that defines Object.prototype.toJSON or Array.prototype.toJSON cannot reshape it.
  function envelope(fields, valueJson) {
    let out = stringify(fields);
    out = slice(out, 0, out.length - 1) + ',"droppedLogs":' + dropped + ',"logs":[';
    for (let i = 0; i < logs.length; i++) out += (i ? "," : "") + stringify(logs[i]);
    out += "]";
    if (valueJson !== undefined) out += ',"value":' + valueJson;
    return out + "}";
  }
  const record = (kind, extra) => {
    const r = { __proto__: null, ok: false, kind };
    const ks = keys(extra);
    for (let i = 0; i < ks.length; i++) r[ks[i]] = extra[ks[i]];
    return r;
  };

  function setup(globalsJson) {
    const v = parse(globalsJson);
    g.androidId = v.androidId;
    g.world = v.world;
    g.rules = v.rules;
    g.turn = v.turn;
    g.finalTurn = v.finalTurn === null ? undefined : v.finalTurn;
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

  function text(v) {
    try { return toStr(v); } catch (e) { return "?"; }
  }

  function details(e) {
    const d = record("error", { what: "", name: null, message: null, line: null, column: null });
    if (e instanceof ErrorCtor) {
      const name = text(e.name), message = text(e.message);
      d.name = name; d.message = message;
      d.what = message ? name + ": " + message : name;
      if (name === "InternalError" && message === "out of memory") d.kind = "memory";
      else if (name === "RangeError" && indexOf(message, "call stack") >= 0) d.kind = "stack";
      const stack = text(e.stack);
      let at = indexOf(stack, FILE + ":");
      if (at >= 0) {
        at += FILE.length + 1;
        let line = 0, column = 0, i = at;
        while (stack[i] >= "0" && stack[i] <= "9") line = line * 10 + +stack[i++];
        if (stack[i] === ":") { i++; while (stack[i] >= "0" && stack[i] <= "9") column = column * 10 + +stack[i++]; }
        if (i > at) { d.line = line; d.column = column || null; }
      }
    } else {
      let shown;
      try { shown = typeof e === "string" || (typeof e === "object" && e !== null) ? stringify(e) : undefined; } catch (x) {}
      d.what = shown === undefined ? text(e) : shown;
    }
    if (d.what.length > 500) d.what = slice(d.what, 0, 500) + "...";
    return d;
  }

  function describe(e) {
    return envelope(details(e));
  }

  return [setup, run, describe];
})()
""" % {
    "max_result": MAX_RESULT_CHARS,
    "max_log": MAX_LOG_CHARS,
    "max_lines": MAX_LOG_LINES,
    "file": '"' + SCRIPT_FILENAME + '"',
}
