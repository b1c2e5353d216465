// The Node anchor of bench/sandbox_bench.py: one android turn in Node's `vm` with a fresh context
// per turn (the isolation Screeps-style hosts pay for), on the same bundle and globals.
//
//   node bench/node_vm_anchor.js SCRIPT.js GLOBALS.json RUNS   ->  {"medianMs", "cpuMedianMs", "value"}
//
// SCRIPT.js is the bundle converted to a classic script by esbuild (--format=iife
// --global-name=__android), compiled once like the sandbox's bytecode; each turn creates a
// context, parses the globals JSON in it, runs the script's top level, calls its default export
// and stringifies the action, as the sandbox does.
"use strict";
const vm = require("vm");
const fs = require("fs");

const [scriptPath, globalsPath, runsText] = process.argv.slice(2);
const globals = fs.readFileSync(globalsPath, "utf8");
const script = new vm.Script(fs.readFileSync(scriptPath, "utf8") + "\n;globalThis.__turn = __android.default;", {
  filename: "android.js",
});
const setup = new vm.Script(
  "(() => { const v = JSON.parse(__globals); globalThis.androidId = v.androidId; globalThis.world = v.world;" +
    " globalThis.rules = v.rules; globalThis.turn = v.turn;" +
    " globalThis.finalTurn = v.finalTurn === null ? undefined : v.finalTurn; })()",
);
const call = new vm.Script("JSON.stringify(__turn())");

function turn() {
  const context = vm.createContext({ __globals: globals });
  setup.runInContext(context);
  script.runInContext(context);
  return call.runInContext(context);
}

const runs = Number(runsText);
for (let i = 0; i < Math.min(50, runs); i++) turn();
// Wall-clock time, and CPU time (this process, all threads: V8's helpers count too), which a busy
// machine inflates less.
const wall = [];
const cpu = [];
for (let i = 0; i < runs; i++) {
  const used = process.cpuUsage();
  const start = process.hrtime.bigint();
  turn();
  wall.push(Number(process.hrtime.bigint() - start) / 1e6);
  const spent = process.cpuUsage(used);
  cpu.push((spent.user + spent.system) / 1e3);
}
const median = (xs) => xs.sort((a, b) => a - b)[xs.length >> 1];
process.stdout.write(JSON.stringify({ medianMs: median(wall), cpuMedianMs: median(cpu), value: JSON.parse(turn()) }));
