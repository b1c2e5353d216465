"""The examples in the code's docstrings run, as part of `make test`: each module of nova_tools
with doctests is one test."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import nova_tools


def _modules_with_examples() -> list[str]:
    names = []
    finder = doctest.DocTestFinder(exclude_empty=True)
    for info in pkgutil.walk_packages(nova_tools.__path__, "nova_tools."):
        if info.name.endswith("__main__"):
            continue  # running it is the command itself
        module = importlib.import_module(info.name)
        if any(test.examples for test in finder.find(module)):
            names.append(info.name)
    return names


MODULES = _modules_with_examples()


def test_the_docstrings_hold_examples() -> None:
    assert len(MODULES) >= 8, (
        MODULES
    )  # engine notes/prng/reasons, rules walk, play, ... (a floor, not a count)


@pytest.mark.parametrize("name", MODULES)
def test_the_examples_in_the_docstrings_hold(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(
        module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE, report=False
    )
    assert result.failed == 0, (
        f"{result.failed} of {result.attempted} examples in {name} failed (run `python -m pytest --doctest-modules {module.__file__}`)"
    )
