/* The sandbox's own entry points into QuickJS-NG, compiled with it into quickjs.wasm
 * (nova_tools/sandbox/wasm_build.py). Exactly what the host uses, nothing more:
 *
 * - the set-up calls (once per snapshot, game image and bundle image), which pass values as
 *   "handles": pointers to a malloc'd JSValue, so the host never builds a JSValue itself;
 * - the raw QuickJS API the per-turn path calls with JSValues as i64 (NaN-boxed on wasm32),
 *   exported by name from quickjs.c itself (wasm_build.py lists them).
 *
 * One runtime and one context live in linear memory. Nothing is ever freed by the host: each
 * turn restores an image over whatever the last one left (guest.py).
 *
 * Imports: `env.host_interrupt` (one call per 10,000 interpreter poll points: one tick) and the
 * WASI calls wasi-libc makes for the clock and randomness; the host answers them all
 * (sandbox/wasi.py).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "quickjs.h"

#define EXPORT(name) __attribute__((export_name(#name)))

__attribute__((import_module("env"), import_name("host_interrupt"))) extern int
host_interrupt(void);

static JSRuntime *runtime;
static JSContext *context;

/* The intrinsics bitmask (guest.INTRINSICS): bit 9 WeakRef/FinalizationRegistry, bit 10
 * `performance`; every other bit set means everything else. Base objects are always there. */
enum {
  NOVA_DATE = 1 << 0,
  NOVA_EVAL = 1 << 1,
  NOVA_REGEXP = 1 << 2,
  NOVA_JSON = 1 << 3,
  NOVA_PROXY = 1 << 4,
  NOVA_MAP_SET = 1 << 5,
  NOVA_TYPED_ARRAYS = 1 << 6,
  NOVA_PROMISE = 1 << 7,
  NOVA_BIG_INT = 1 << 8,
  NOVA_WEAK_REF = 1 << 9,
  NOVA_PERFORMANCE = 1 << 10,
  NOVA_DOM_EXCEPTION = 1 << 11,
  NOVA_ATOB_BTOA = 1 << 12,
};

static JSValue *boxed(JSValue value) {
  JSValue *box = malloc(sizeof *box);
  if (box) *box = value;
  return box;
}

static int on_interrupt(JSRuntime *rt, void *opaque) {
  (void)rt;
  (void)opaque;
  return host_interrupt();
}

EXPORT(qjs_init2) int qjs_init2(uint32_t intrinsics) {
  if (runtime) return -1;
  runtime = JS_NewRuntime();
  if (!runtime) return -1;
  context = JS_NewContextRaw(runtime);
  if (!context || JS_AddIntrinsicBaseObjects(context) < 0) return -1;
  int failed = 0;
  if (intrinsics & NOVA_DATE) failed |= JS_AddIntrinsicDate(context);
  if (intrinsics & NOVA_EVAL) failed |= JS_AddIntrinsicEval(context);
  if (intrinsics & NOVA_REGEXP) {
    JS_AddIntrinsicRegExpCompiler(context);
    failed |= JS_AddIntrinsicRegExp(context);
  }
  if (intrinsics & NOVA_JSON) failed |= JS_AddIntrinsicJSON(context);
  if (intrinsics & NOVA_PROXY) failed |= JS_AddIntrinsicProxy(context);
  if (intrinsics & NOVA_MAP_SET) failed |= JS_AddIntrinsicMapSet(context);
  if (intrinsics & NOVA_TYPED_ARRAYS) failed |= JS_AddIntrinsicTypedArrays(context);
  if (intrinsics & NOVA_PROMISE) failed |= JS_AddIntrinsicPromise(context);
  if (intrinsics & NOVA_BIG_INT) failed |= JS_AddIntrinsicBigInt(context);
  if (intrinsics & NOVA_WEAK_REF) failed |= JS_AddIntrinsicWeakRef(context);
  if (intrinsics & NOVA_PERFORMANCE) failed |= JS_AddPerformance(context);
  if (intrinsics & NOVA_DOM_EXCEPTION) failed |= JS_AddIntrinsicDOMException(context);
  if (intrinsics & NOVA_ATOB_BTOA) failed |= JS_AddIntrinsicAToB(context);
  return failed ? -1 : 0;
}

/* The QuickJS-NG version inside (SANDBOX_BUILD names it; a test compares). */
EXPORT(qjs_get_quickjs_version) const char *qjs_get_quickjs_version(void) { return JS_GetVersion(); }

EXPORT(qjs_get_context_ptr) JSContext *qjs_get_context_ptr(void) { return context; }

EXPORT(qjs_set_max_stack_size) void qjs_set_max_stack_size(size_t size) {
  JS_SetMaxStackSize(runtime, size);
}

EXPORT(qjs_set_interrupt_handler) void qjs_set_interrupt_handler(int enable) {
  JS_SetInterruptHandler(runtime, enable ? on_interrupt : NULL, NULL);
}

/* The JS heap's limit in bytes (QuickJS's own accounting of what it allocated). At the limit an
 * allocation fails with an "out of memory" InternalError that no script can catch; the build
 * lets QuickJS exceed the limit by a little while it builds that error (wasm_build.PATCHES). */
EXPORT(qjs_set_memory_limit) void qjs_set_memory_limit(size_t limit) {
  JS_SetMemoryLimit(runtime, limit);
}

EXPORT(qjs_run_gc) void qjs_run_gc(void) { JS_RunGC(runtime); }

EXPORT(qjs_execute_pending_job) int qjs_execute_pending_job(void) {
  JSContext *job_context;
  return JS_ExecutePendingJob(runtime, &job_context);
}

/* Blocks outside the JS heap (not counted against its limit), for the host's arguments. */
EXPORT(wasm_malloc) void *wasm_malloc(size_t size) { return malloc(size); }

EXPORT(wasm_free) void wasm_free(void *block) { free(block); }

/* -- handles ------------------------------------------------------------------------------ */

EXPORT(qjs_get_undefined) JSValue *qjs_get_undefined(void) { return boxed(JS_UNDEFINED); }

EXPORT(qjs_get_exception) JSValue *qjs_get_exception(void) {
  return boxed(JS_GetException(context));
}

EXPORT(qjs_is_exception) int qjs_is_exception(JSValue *value) { return JS_IsException(*value); }

/* A global script (flags: JS_EVAL_TYPE_GLOBAL and friends). */
EXPORT(qjs_eval)
JSValue *qjs_eval(const char *code, size_t length, const char *filename, int flags) {
  return boxed(JS_Eval(context, code, length, filename, flags));
}

/* `code` compiled (not run) and written as bytecode: a malloc'd copy, its length in *length;
 * NULL with the exception pending if it does not compile. */
EXPORT(qjs_compile)
uint8_t *qjs_compile(const char *code, size_t code_length, const char *filename, int flags,
                     int write_flags, size_t *length) {
  *length = 0;
  JSValue compiled = JS_Eval(context, code, code_length, filename, flags | JS_EVAL_FLAG_COMPILE_ONLY);
  if (JS_IsException(compiled)) return NULL;
  size_t size = 0;
  uint8_t *written = JS_WriteObject(context, &size, compiled, write_flags | JS_WRITE_OBJ_BYTECODE);
  JS_FreeValue(context, compiled);
  if (!written) return NULL;
  uint8_t *copy = malloc(size ? size : 1);
  if (copy) {
    memcpy(copy, written, size);
    *length = size;
  }
  js_free(context, written);
  return copy;
}

EXPORT(qjs_get_prop_string) JSValue *qjs_get_prop_string(JSValue *object, const char *name) {
  return boxed(JS_GetPropertyStr(context, *object, name));
}

/* func.call(this, ...argv), where argv holds `count` handles. */
EXPORT(qjs_call)
JSValue *qjs_call(JSValue *func, JSValue *this_value, int count, JSValue **argv) {
  JSValue args[8];
  if (count < 0 || count > 8) return boxed(JS_ThrowRangeError(context, "too many arguments"));
  for (int i = 0; i < count; i++) args[i] = *argv[i];
  return boxed(JS_Call(context, *func, *this_value, count, args));
}

EXPORT(qjs_new_string) JSValue *qjs_new_string(const char *text, size_t length) {
  return boxed(JS_NewStringLen(context, text, length));
}

/* The UTF-8 of a string (lone surrogates as 3-byte sequences), its length in *length. */
EXPORT(qjs_get_string_len) const char *qjs_get_string_len(JSValue *value, size_t *length) {
  return JS_ToCStringLen2(context, length, *value, false);
}

EXPORT(qjs_get_float64) double qjs_get_float64(JSValue *value) {
  double number = 0;
  JS_ToFloat64(context, &number, *value);
  return number;
}

/* -- the per-turn path: what took the host several calls, in one each -------------------------- */

/* setupTurn(the turn's globals): `payload` is the globals' JSON text in QuickJS's binary form of
 * one string (guest.encode_string), read and handed over. Returns setupTurn's result, or an
 * exception (pending) if either step failed. */
EXPORT(nova_setup_turn)
JSValue nova_setup_turn(const uint8_t *payload, size_t length, JSValue setup_turn) {
  JSValue text = JS_ReadObject(context, payload, length, 0);
  if (JS_IsException(text)) return text;
  return JS_Call(context, setup_turn, JS_UNDEFINED, 1, &text);
}

/* What nova_evaluate found (runner.py reads the same numbers). */
enum {
  NOVA_EVALUATED = 0,      /* *out: the module's namespace */
  NOVA_EVAL_THREW = 1,     /* evaluating the module threw (pending exception) */
  NOVA_JOB_THREW = 2,      /* a promise job threw past its promise (pending exception) */
  NOVA_TOO_MANY_JOBS = 3,  /* still jobs after max_jobs */
  NOVA_REJECTED = 4,       /* *out: the module promise's rejection value */
  NOVA_PENDING = 5,        /* the module never settled (a top-level await on nothing) */
  NOVA_NO_NAMESPACE = 6,   /* reading the namespace threw (pending exception) */
};

/* Evaluate a module already read (its top level runs), run its promise jobs (at most
 * `max_jobs`), and hand back its namespace in *out. */
EXPORT(nova_evaluate) int nova_evaluate(JSValue module, int max_jobs, JSValue *out) {
  JSValue promise = JS_EvalFunction(context, module);
  if (JS_IsException(promise)) return NOVA_EVAL_THREW;
  int settled = 0;
  for (int i = 0; i < max_jobs && !settled; i++) {
    JSContext *job_context;
    int status = JS_ExecutePendingJob(runtime, &job_context);
    if (status < 0) return NOVA_JOB_THREW;
    settled = status == 0;
  }
  if (!settled) return NOVA_TOO_MANY_JOBS;
  JSPromiseStateEnum state = JS_PromiseState(context, promise);
  if (state == JS_PROMISE_REJECTED) {
    *out = JS_PromiseResult(context, promise);
    return NOVA_REJECTED;
  }
  if (state != JS_PROMISE_FULFILLED) return NOVA_PENDING;
  JSValue namespace = JS_GetModuleNamespace(context, JS_VALUE_GET_PTR(module));
  if (JS_IsException(namespace)) return NOVA_NO_NAMESPACE;
  *out = namespace;
  return NOVA_EVALUATED;
}
