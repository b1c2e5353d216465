"""Benchmarks only: run the sandbox on quickjs-wasi 3.7.0's prebuilt quickjs.wasm (the "before"
of issue 27's own-build figures).

Since sandbox build 8 a turn calls two exports of our own glue, ``nova_setup_turn`` and
``nova_evaluate``, which the prebuilt wasm does not have. ``install()`` (in a bench process that
chose the prebuilt with ``build.use_for_benchmark``) makes ``Guest.call`` do their work with the
raw QuickJS calls the host made before build 8, one host call each, as the sandbox did then.
"""

from __future__ import annotations

import struct

from nova_tools.sandbox import guest as guest_module

_TAG_EXCEPTION = 6
_UNDEFINED = 3 << 32


def needed() -> bool:
    """Whether this process's sandbox build lacks the exports (checked on its compiled module)."""
    from nova_tools.sandbox import build

    names = {export.name for export in build.compiled_quickjs().module.exports}
    return "nova_setup_turn" not in names


def install() -> None:
    original = guest_module.Guest.call
    contexts: list[int] = []  # the JSContext's address: the same in every guest of one module

    def context(self: guest_module.Guest) -> int:
        if not contexts:
            contexts.append(original(self, "qjs_get_context_ptr"))
        return contexts[0]

    def call(self: guest_module.Guest, name: str, *args: int) -> int:
        if name == "nova_setup_turn":
            at, length, setup_turn = args
            ctx = context(self)
            text = original(self, "JS_ReadObject", ctx, at, length, 0)
            if text >> 32 == _TAG_EXCEPTION:
                return text
            self.write(self.scratch, struct.pack("<q", text))
            return original(self, "JS_Call", ctx, setup_turn, _UNDEFINED, 1, self.scratch)
        if name == "nova_evaluate":
            module, max_jobs, out = args
            ctx = context(self)
            promise = original(self, "JS_EvalFunction", ctx, module)
            if promise >> 32 == _TAG_EXCEPTION:
                return 1
            for _ in range(max_jobs):
                status = original(self, "qjs_execute_pending_job")
                if status < 0:
                    return 2
                if status == 0:
                    break
            else:
                return 3
            state = original(self, "JS_PromiseState", ctx, promise)
            if state == 2:
                self.write(out, struct.pack("<q", original(self, "JS_PromiseResult", ctx, promise)))
                return 4
            if state != 1:
                return 5
            namespace = original(self, "JS_GetModuleNamespace", ctx, module & 0xFFFFFFFF)
            if namespace >> 32 == _TAG_EXCEPTION:
                return 6
            self.write(out, struct.pack("<q", namespace))
            return 0
        return original(self, name, *args)

    guest_module.Guest.call = call  # type: ignore[method-assign]
