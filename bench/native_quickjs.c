/* The native anchor of bench/native_bench.py: the sandbox's own turn steps in QuickJS-NG built
 * natively (from the C sources of the PyPI sdist quickjs-ng, built by the bench into a cache).
 *
 *   native_quickjs PRELUDE.js GAME.json BUNDLE.mjs PAYLOAD.txt NUMBERS.txt RUNS MEMORY
 *     -> {"turnUs", "turnCpuUs", "readUs", "afreshUs", "afreshCpuUs", "ticks", "envelope"}
 *
 * Set up once, as the sandbox's images are: a runtime with the sandbox's memory limit and JS
 * stack, the prelude evaluated (its four drivers kept), the game installed (installGame), the
 * bundle compiled to bytecode. Every turn then reads the bytecode (JS_ReadObject, timed apart as
 * `readUs`: the sandbox's bundle image saves it) and times what the sandbox runs each turn:
 * writing the turn's numbers into the prelude's N (NUMBERS.txt: globals.Handover's, as the sandbox
 * writes them), setupTurn(payload), evaluating the module and draining its jobs, reading the
 * namespace, run(ns) and the envelope's UTF-8. The garbage of a turn is collected after it, and
 * the prelude's world objects made again (renew), untimed: a sandbox turn does neither, its image
 * is restored. `afreshUs` is a whole turn built from nothing (new
 * runtime, prelude, installGame, read, the steps): what the sandbox's images save.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "quickjs.h"

static long ticks;

static int on_interrupt(JSRuntime *rt, void *opaque) {
  (void)rt;
  (void)opaque;
  ticks++;
  return 0;
}

static char *slurp(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    fprintf(stderr, "cannot read %s\n", path);
    exit(2);
  }
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *buf = malloc((size_t)n + 1);
  if (fread(buf, 1, (size_t)n, f) != (size_t)n) exit(2);
  buf[n] = 0;
  fclose(f);
  *len = (size_t)n;
  return buf;
}

static double now(clockid_t clock) {
  struct timespec t;
  clock_gettime(clock, &t);
  return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

static void fail(JSContext *ctx, const char *what) {
  JSValue e = JS_GetException(ctx);
  const char *s = JS_ToCString(ctx, e);
  fprintf(stderr, "%s: %s\n", what, s ? s : "?");
  exit(3);
}

typedef struct {
  JSRuntime *rt;
  JSContext *ctx;
  JSValue setup_turn, run, renew, numbers;
  uint8_t *number_bytes; /* N's memory */
} World;

static void world_open(World *w, const char *prelude, size_t prelude_len, const char *game,
                       size_t game_len, size_t memory) {
  w->rt = JS_NewRuntime();
  JS_SetMaxStackSize(w->rt, 128 * 1024);
  JS_SetInterruptHandler(w->rt, on_interrupt, NULL);
  w->ctx = JS_NewContext(w->rt);
  JSValue drivers = JS_Eval(w->ctx, prelude, prelude_len, "<nova prelude>", JS_EVAL_TYPE_GLOBAL);
  if (JS_IsException(drivers)) fail(w->ctx, "prelude");
  JSValue install = JS_GetPropertyUint32(w->ctx, drivers, 0);
  w->setup_turn = JS_GetPropertyUint32(w->ctx, drivers, 1);
  w->run = JS_GetPropertyUint32(w->ctx, drivers, 2);
  w->renew = JS_GetPropertyUint32(w->ctx, drivers, 6);
  w->numbers = JS_GetPropertyUint32(w->ctx, drivers, 7);
  size_t offset, length, per, size;
  JSValue buffer = JS_GetTypedArrayBuffer(w->ctx, w->numbers, &offset, &length, &per);
  if (JS_IsException(buffer)) fail(w->ctx, "the prelude's N");
  w->number_bytes = JS_GetArrayBuffer(w->ctx, &size, buffer) + offset;
  JS_FreeValue(w->ctx, buffer);
  JSValue text = JS_NewStringLen(w->ctx, game, game_len);
  JSValue done = JS_Call(w->ctx, install, JS_UNDEFINED, 1, &text);
  if (JS_IsException(done)) fail(w->ctx, "installGame");
  JS_FreeValue(w->ctx, done);
  JS_FreeValue(w->ctx, text);
  JS_FreeValue(w->ctx, install);
  JS_FreeValue(w->ctx, drivers);
  JS_SetMemoryLimit(w->rt, memory);
}

static void world_close(World *w) {
  JS_FreeValue(w->ctx, w->setup_turn);
  JS_FreeValue(w->ctx, w->run);
  JS_FreeValue(w->ctx, w->renew);
  JS_FreeValue(w->ctx, w->numbers);
  JS_FreeContext(w->ctx);
  JS_FreeRuntime(w->rt);
}

static JSValue read_module(World *w, const uint8_t *code, size_t len) {
  JSValue module = JS_ReadObject(w->ctx, code, len, JS_READ_OBJ_BYTECODE);
  if (JS_IsException(module) || JS_ResolveModule(w->ctx, module) < 0) fail(w->ctx, "read");
  return module;
}

/* The sandbox's per-turn steps (runner.py _Turn._steps), on a module already read. */
static char *turn_steps(World *w, JSValue module, const char *payload, size_t payload_len,
                        const int32_t *numbers, size_t number_count) {
  JSContext *ctx = w->ctx;
  memcpy(w->number_bytes, numbers, number_count * sizeof *numbers);
  JSValue text = JS_NewStringLen(ctx, payload, payload_len);
  JSValue set = JS_Call(ctx, w->setup_turn, JS_UNDEFINED, 1, &text);
  if (JS_IsException(set)) fail(ctx, "setupTurn");
  JS_FreeValue(ctx, set);
  JS_FreeValue(ctx, text);
  JSModuleDef *m = JS_VALUE_GET_PTR(module);
  JSValue promise = JS_EvalFunction(ctx, module);
  if (JS_IsException(promise)) fail(ctx, "evaluate");
  JSContext *job;
  while (JS_ExecutePendingJob(w->rt, &job) > 0) {
  }
  if (JS_PromiseState(ctx, promise) != JS_PROMISE_FULFILLED) fail(ctx, "module promise");
  JS_FreeValue(ctx, promise);
  JSValue ns = JS_GetModuleNamespace(ctx, m);
  JSValue envelope = JS_Call(ctx, w->run, JS_UNDEFINED, 1, &ns);
  if (JS_IsException(envelope)) fail(ctx, "run");
  JS_FreeValue(ctx, ns);
  size_t len;
  const char *s = JS_ToCStringLen(ctx, &len, envelope);
  char *copy = malloc(len + 1);
  memcpy(copy, s, len + 1);
  JS_FreeCString(ctx, s);
  JS_FreeValue(ctx, envelope);
  return copy;
}

static int by_value(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static double median(double *xs, int n) {
  qsort(xs, (size_t)n, sizeof *xs, by_value);
  return xs[n / 2];
}

static void put_json_string(const char *s) {
  putchar('"');
  for (; *s; s++) {
    unsigned char c = (unsigned char)*s;
    if (c == '"' || c == '\\')
      printf("\\%c", c);
    else if (c < 0x20)
      printf("\\u%04x", c);
    else
      putchar(c);
  }
  putchar('"');
}

int main(int argc, char **argv) {
  if (argc != 8) {
    fprintf(stderr, "usage: %s PRELUDE GAME BUNDLE PAYLOAD NUMBERS RUNS MEMORY\n", argv[0]);
    return 2;
  }
  size_t prelude_len, game_len, bundle_len, payload_len, numbers_len;
  char *prelude = slurp(argv[1], &prelude_len);
  char *game = slurp(argv[2], &game_len);
  char *bundle = slurp(argv[3], &bundle_len);
  char *payload = slurp(argv[4], &payload_len);
  char *numbers_text = slurp(argv[5], &numbers_len);
  int32_t numbers[64];
  size_t number_count = 0;
  for (char *at = numbers_text, *end; number_count < 64; at = end) {
    long value = strtol(at, &end, 10);
    if (end == at) break;
    numbers[number_count++] = (int32_t)value;
  }
  int runs = atoi(argv[6]);
  size_t memory = (size_t)atoll(argv[7]);
  if (runs < 1) runs = 1;

  World w;
  world_open(&w, prelude, prelude_len, game, game_len, memory);
  JSValue compiled = JS_Eval(w.ctx, bundle, bundle_len, "android.js",
                             JS_EVAL_TYPE_MODULE | JS_EVAL_FLAG_COMPILE_ONLY);
  if (JS_IsException(compiled)) fail(w.ctx, "compile");
  size_t code_len;
  uint8_t *code = JS_WriteObject(w.ctx, &code_len, compiled, JS_WRITE_OBJ_BYTECODE);
  uint8_t *bytecode = malloc(code_len);
  memcpy(bytecode, code, code_len);
  js_free(w.ctx, code);
  JS_FreeValue(w.ctx, compiled);

  double *wall = malloc(sizeof(double) * (size_t)runs);
  double *cpu = malloc(sizeof(double) * (size_t)runs);
  double *read = malloc(sizeof(double) * (size_t)runs);
  char *envelope = NULL;
  long turn_ticks = 0;
  int warm = runs < 20 ? runs : 20;
  for (int i = -warm; i < runs; i++) {
    double r0 = now(CLOCK_MONOTONIC);
    JSValue module = read_module(&w, bytecode, code_len);
    double t0 = now(CLOCK_MONOTONIC), c0 = now(CLOCK_THREAD_CPUTIME_ID);
    ticks = 0;
    char *out = turn_steps(&w, module, payload, payload_len, numbers, number_count);
    double t1 = now(CLOCK_MONOTONIC), c1 = now(CLOCK_THREAD_CPUTIME_ID);
    turn_ticks = ticks;
    if (i >= 0) {
      wall[i] = t1 - t0;
      cpu[i] = c1 - c0;
      read[i] = t0 - r0;
    }
    free(envelope);
    envelope = out;
    JSValue renewed = JS_Call(w.ctx, w.renew, JS_UNDEFINED, 0, NULL);
    if (JS_IsException(renewed)) fail(w.ctx, "renew");
    JS_FreeValue(w.ctx, renewed);
    JS_RunGC(w.rt);
  }
  world_close(&w);

  /* A turn built from nothing: what the sandbox's images save. */
  int fresh_runs = runs < 50 ? runs : 50;
  double *afresh = malloc(sizeof(double) * (size_t)fresh_runs);
  double *afresh_cpu = malloc(sizeof(double) * (size_t)fresh_runs);
  for (int i = 0; i < fresh_runs; i++) {
    double t0 = now(CLOCK_MONOTONIC), c0 = now(CLOCK_THREAD_CPUTIME_ID);
    World f;
    world_open(&f, prelude, prelude_len, game, game_len, memory);
    JSValue module = read_module(&f, bytecode, code_len);
    free(turn_steps(&f, module, payload, payload_len, numbers, number_count));
    world_close(&f);
    afresh[i] = now(CLOCK_MONOTONIC) - t0;
    afresh_cpu[i] = now(CLOCK_THREAD_CPUTIME_ID) - c0;
  }

  printf("{\"turnUs\":%.3f,\"turnCpuUs\":%.3f,\"readUs\":%.3f,\"afreshUs\":%.3f,"
         "\"afreshCpuUs\":%.3f,\"ticks\":%ld,\"quickjs\":\"%s\",\"envelope\":",
         median(wall, runs), median(cpu, runs), median(read, runs), median(afresh, fresh_runs),
         median(afresh_cpu, fresh_runs), turn_ticks, JS_GetVersion());
  put_json_string(envelope);
  printf("}\n");
  return 0;
}
