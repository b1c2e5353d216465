"""Shaping api results for agents: the short text summaries every tool returns beside its
structured content (the api result itself). No game logic: only presentation."""

from __future__ import annotations

from dataclasses import replace

from .. import api
from ..limits import NOTES  # the action fields that carry an android's notes

EVENT_TEXT_CHARS = 120  # memory/recording shown inside an event; the rest is cut with a note
EVENT_LINE_CHARS = 300  # one event's line in a tool's text (a script error's reason can be long)


def materials_text(bag: dict[str, int]) -> str:
    return ", ".join(f"{units} {material}" for material, units in bag.items()) or "nothing"


def points_text(value: float) -> str:
    return f"{value:g}"


def at_text(position: api.Position) -> str:
    return f"({position.x},{position.y})"


def cut_text(text: str, limit: int) -> str:
    return (
        text if len(text) <= limit else text[:limit] + f"... [{len(text) - limit} more characters]"
    )


def shorten_action(action: dict, limit: int = EVENT_TEXT_CHARS) -> dict:
    """An action with long memory and recording strings cut (get_android shows them whole)."""
    return {
        k: cut_text(v, limit) if k in NOTES and isinstance(v, str) else v for k, v in action.items()
    }


def shorten_event(line: api.EventLine, limit: int = EVENT_TEXT_CHARS) -> api.EventLine:
    """An event line whose turn has its long memory and recording strings cut."""
    event = line.event
    if not isinstance(event, api.Turn) or event.action is None:
        return line
    return replace(line, event=replace(event, action=shorten_action(event.action, limit)))


def event_line(line: api.EventLine) -> str:
    """``#12 r3 alice's android-1 collected 5 metal``: the event's index and its words (api.wording)."""
    return f"#{line.index} {cut_text(line.text or line.event.kind, EVENT_LINE_CHARS)}"


def world_text(game: str, world: api.PlayerWorld) -> str:
    yours = world.yours
    if world.whole_map:
        seen = f"{game} round {world.round}, the whole map (a replay's view) for {world.player}: {world.width}x{world.height} tiles"
    else:
        seen = f"{game} round {world.round} as {world.player}: {world.visible_tiles} of {world.width * world.height} tiles visible"
    lines = [f"{seen}; {yours.active_androids} of {yours.capacity} android slots used."]
    for a in yours.androids:
        state = "" if a.active else " (wreck)"
        lines.append(
            f"your {a.id}{state} at {at_text(a.position)}: battery {points_text(a.battery)}, health {points_text(a.health)}, cargo {materials_text(a.cargo)}"
        )
    for b in yours.buildings:
        site = (
            ""
            if b.complete
            else f" (site, owes {materials_text(b.owed)}, {b.remaining_ticks} ticks)"
        )
        stored = f", stores {materials_text(b.storage)}" if b.storage else ""
        lines.append(f"your {b.type} {b.id} at {at_text(b.position)}{site}{stored}")
    lines.append(f"scripts: {', '.join(f'{s.id} ({s.name})' for s in yours.scripts) or 'none'}")
    loose = [(t.position, t.scattered) for t in world.tiles if t.scattered]
    if loose:
        lines.append(
            "loose material: "
            + "; ".join(f"{at_text(where)} {materials_text(bag)}" for where, bag in loose)
        )
    for spotted in world.androids:
        lines.append(
            f"seen: {spotted.owner_id}'s {spotted.id}{'' if spotted.active else ' (wreck)'}"
            f" at {at_text(spotted.position)}"
        )
    for b in world.buildings:
        lines.append(
            f"seen: {b.owner_id}'s {b.type}{'' if b.complete else ' site'} at {at_text(b.position)}"
        )
    if (world.tile_count or 0) > len(world.tiles):
        lines.append(
            f"(listing tiles {world.tile_offset}-{(world.tile_offset or 0) + len(world.tiles) - 1} of {world.tile_count}; page with tile_offset)"
        )
    if world.messages:
        lines.append(f"latest broadcasts ({len(world.messages)} of {world.message_count}):")
        lines += [
            f"  r{m.round} {m.owner_id}/{m.android_id} at {at_text(m.position)}: {cut_text(m.content, 120)}"
            for m in world.messages
        ]
    return "\n".join(lines)
