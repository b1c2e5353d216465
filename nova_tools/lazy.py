"""Packages whose public names load on first use (PEP 562), listed once.

The names are the ones the package's ``if TYPE_CHECKING:`` block imports (``from .module import
name`` lines, ``as`` included): type checkers and readers read that block, and :func:`lazy_names`
parses it the first time a name is asked for, so a command that needs one name never pays for the
modules of the others. Importing this module costs nothing (``re`` and ``importlib`` load on the
first name asked for).
"""

from __future__ import annotations

from collections.abc import Callable

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing


def lazy_names(
    package: str, file: str, namespace: dict
) -> tuple[Callable[[str], object], Callable[[], list[str]]]:
    """The ``__getattr__`` and ``__dir__`` of the package named ``package`` whose ``__init__``
    is ``file`` and whose globals are ``namespace``: a name of its ``if TYPE_CHECKING:`` block is
    imported from its module, a submodule's name imports the submodule; each is then kept in
    ``namespace``, so later reads skip ``__getattr__``."""
    where: dict[str, tuple[str, str]] = {}  # name -> (module, attribute), read on first use

    def names() -> dict[str, tuple[str, str]]:
        if not where:
            import re  # not ast: importing it would cost every command a few ms

            with open(file, encoding="utf-8") as source:
                text = source.read()
            start = text.index("\nif TYPE_CHECKING:")
            block = re.sub(r"#[^\n]*", "", text[start : text.index("\n\n", start)])
            for module, listed in re.findall(r"from (\.+[\w.]*) import (\([^)]*\)|[^\n]*)", block):
                for item in listed.strip("()").split(","):
                    if item.strip():
                        name, _, alias = item.strip().partition(" as ")
                        where[alias or name] = (module, name)
        return where

    def __getattr__(name: str) -> object:
        import importlib

        if name == "__all__":
            value: object = sorted(names())
        elif name in names():
            module, attribute = where[name]
            value = getattr(importlib.import_module(module, package), attribute)
        elif not name.startswith("_") and _is_module(f"{package}.{name}"):
            value = importlib.import_module(f"{package}.{name}")  # a submodule (api.wording)
        else:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        namespace[name] = value
        return value

    def __dir__() -> list[str]:
        return sorted(set(namespace) | set(names()))

    return __getattr__, __dir__


def _is_module(name: str) -> bool:
    import importlib.util

    return importlib.util.find_spec(name) is not None
