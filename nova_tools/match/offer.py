"""The offer: the host's terms, and the checks each side makes before it plays.

The host offers its rules (with ``match.finalRound`` = the rounds offered, and a fair, rotational
map unless its rules say otherwise), the board sizes it accepts, the disclosure mode, and the
builds both sides must share: the sandbox (the interpreter that decides every turn) and
nova-tools itself (the engine). The board size is the one rule the joiner chooses.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path
from typing import Any

from ..limits import MAX_ROUNDS
from ..play import sandbox_build  # the sandbox build a game records: both sides must run the same
from ..rules import Rules, RulesError, resolve
from ..rules.loading import parse_text, read_file
from .messages import Accept, Offer, Size
from .result import MatchError

FAIR_SYMMETRY = "rotational"


@lru_cache(maxsize=1)
def nova_version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("nova-tools")
    except PackageNotFoundError:  # pragma: no cover - running from a bare source tree
        return "unknown"


def raw_rules(rules: Rules | Mapping | str | Path | None) -> dict:
    """The host's rules as a JSON object, before defaults (so "not said" can be told from "said")."""
    if rules is None:
        return {}
    if isinstance(rules, Rules):
        return rules.to_json()
    if isinstance(rules, Mapping):
        return copy.deepcopy(dict(rules))
    if isinstance(rules, Path):
        value = read_file(rules)
        resolve(value, str(rules))  # report problems against the file the host wrote
        return _copied_object(value)
    value = parse_text(rules).value
    resolve(value)
    return _copied_object(value)


def _copied_object(value: object) -> dict[str, Any]:
    """Rules that resolved: one JSON object (``resolve`` refuses anything else)."""
    if not isinstance(value, dict):
        raise MatchError("the rules are not one JSON object")
    return copy.deepcopy(value)


def offered_rules(rules: Rules | Mapping | str | Path | None, rounds: int) -> dict:
    """The rules the host offers: its own, with ``match.finalRound`` = ``rounds`` and a rotational map
    unless they choose a symmetry themselves. Resolved, so the joiner gets every value."""
    if not 1 <= rounds <= MAX_ROUNDS:
        raise MatchError(f"a match has from 1 to {MAX_ROUNDS} rounds, not {rounds}")
    raw = raw_rules(rules)
    if not isinstance(raw, dict):
        resolve(raw)  # raises the rules' own sentence
    world = raw.setdefault("world", {})
    if isinstance(world, dict) and "symmetry" in _world_fields() and "symmetry" not in world:
        world["symmetry"] = FAIR_SYMMETRY
    match = raw.setdefault("match", {})
    if isinstance(match, dict):
        match["finalRound"] = rounds
    return resolve(raw).to_json()


def _world_fields() -> set[str]:
    from ..rules.models import WorldRules

    return {field.alias or name for name, field in WorldRules.model_fields.items()}


def rules_for(offered: dict, size: Size, source: str = "the host's rules") -> Rules:
    """The match's rules on the agreed board."""
    data = copy.deepcopy(offered)
    world = data.get("world")
    data["world"] = {
        **(world if isinstance(world, dict) else {}),
        "width": size.width,
        "height": size.height,
    }
    return resolve(data, source)


def parse_sizes(text: str | None, rules: dict) -> list[Size]:
    """``--sizes 12x12,24x24``; without it, the size in the host's rules."""
    if not text:
        world = rules["world"]
        return [Size(width=world["width"], height=world["height"])]
    sizes: list[Size] = []
    for part in text.split(","):
        try:
            size = Size.parse(part)
        except ValueError as error:
            raise MatchError(str(error)) from None
        if size not in sizes:
            sizes.append(size)
    if len(sizes) > 16:
        raise MatchError(f"offer at most 16 board sizes, not {len(sizes)}")
    for size in sizes:
        try:
            rules_for(rules, size)
        except RulesError as error:
            raise MatchError(f"the rules do not allow a {size} board: {error}") from None
    return sizes


def _builds_differ(
    label: str, theirs: dict[str, str], ours: dict[str, str], whose: str
) -> str | None:
    if theirs == ours:
        return None
    keys = sorted(set(theirs) | set(ours))
    diffs = [
        f"{k} {theirs.get(k, 'none')} there, {ours.get(k, 'none')} here"
        for k in keys
        if theirs.get(k) != ours.get(k)
    ]
    return (
        f"{whose} runs another {label} ({'; '.join(diffs[:4])}); both sides must run the same interpreter to agree on "
        "every turn, so install the same nova-tools release"
    )


def check_offer(offer: Offer, player: str, size: Size | None) -> tuple[Size, Rules]:
    """The joiner's checks; a MatchError's sentence is what the joiner refuses the offer with."""
    problem = _builds_differ("sandbox build", offer.sandbox, sandbox_build(), "the host")
    if problem:
        raise MatchError(problem)
    if offer.nova != nova_version():
        raise MatchError(
            f"the host runs nova-tools {offer.nova} and this side runs {nova_version()}; both sides need the same release"
        )
    if offer.host == player:
        raise MatchError(f"the host also plays as {player!r}; join with another --player")
    chosen = size or offer.sizes[0]
    if chosen not in offer.sizes:
        offered = ", ".join(str(s) for s in offer.sizes)
        raise MatchError(
            f"you asked for a {chosen} board, which the host does not offer (it offers {offered})"
        )
    try:
        rules = rules_for(offer.rules, chosen)
    except RulesError as error:
        raise MatchError(f"the host's rules are not valid here: {error}") from None
    if rules.match.final_round != offer.rounds:
        raise MatchError(
            f"the host's rules land the humans on round {rules.match.final_round}, not on the {offer.rounds} rounds offered"
        )
    return chosen, rules


def check_accept(accept: Accept, offer: Offer) -> Rules:
    """The host's checks of the joiner's answer (a modified joiner could skip its own)."""
    problem = _builds_differ("sandbox build", accept.sandbox, offer.sandbox, "the joiner")
    if problem:
        raise MatchError(problem)
    if accept.nova != offer.nova:
        raise MatchError(
            f"the joiner runs nova-tools {accept.nova} and this side runs {offer.nova}; both sides need the same release"
        )
    if accept.player == offer.host:
        raise MatchError(
            f"the joiner also plays as {offer.host!r}; it must join with another --player"
        )
    if accept.size not in offer.sizes:
        offered = ", ".join(str(s) for s in offer.sizes)
        raise MatchError(
            f"the joiner asked for a {accept.size} board, which this host does not offer (it offers {offered})"
        )
    return rules_for(offer.rules, accept.size, "this host's rules")
