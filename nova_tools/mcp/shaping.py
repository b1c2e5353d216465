"""Shaping api results for agents: pydantic outputs from the api's JSON, and the short text
summaries every tool returns beside its structured content. No game logic: only presentation."""

from __future__ import annotations

import json

from ..engine.notes import NOTE_KEYS
from .models import AndroidBrief, BuildingOut, EventOut, OwnAndroid, Position, WorldView

EVENT_TEXT_CHARS = 120  # memory/recording shown inside an event; the rest is cut with a note


def position_of(data: dict) -> Position:
    return Position(x=data["position"]["x"], y=data["position"]["y"])


def android_brief(data: dict) -> AndroidBrief:
    return AndroidBrief(
        id=data["id"],
        owner_id=data["ownerId"],
        script_id=data["scriptId"],
        position=position_of(data),
        battery=data["battery"],
        health=data["health"],
        active=data["active"],
        cargo=data["cargo"],
    )


def own_android(data: dict) -> OwnAndroid:
    return OwnAndroid(**android_brief(data).model_dump(), memory_length=data["memoryLength"], recording_length=data["recordingLength"])


def building_out(data: dict) -> BuildingOut:
    return BuildingOut(
        id=data["id"],
        type=data["type"],
        owner_id=data["ownerId"],
        position=position_of(data),
        health=data["health"],
        complete=data["complete"],
        initial=data["initial"],
        remaining_ticks=data["remainingTicks"],
        owed=data["owed"],
        storage=data["storage"],
    )


def materials_text(bag: dict[str, int]) -> str:
    return ", ".join(f"{units} {material}" for material, units in bag.items()) or "nothing"


def points_text(value: float) -> str:
    return f"{value:g}"


def at_text(position: Position) -> str:
    return f"({position.x},{position.y})"


def cut_text(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[:limit] + f"... [{len(text) - limit} more characters]"


def shorten_event(event: dict, limit: int = EVENT_TEXT_CHARS) -> dict:
    """An event with long memory and recording strings cut (get_android shows them whole)."""
    action = event.get("action")
    if isinstance(action, dict):
        cut = {k: _cut_note(v, limit) if k in NOTE_KEYS else v for k, v in action.items()}
        event = {**event, "action": cut}
    return event


def _cut_note(note: object, limit: int) -> object:
    """A note, or the texts of a note's edits ([start, end, text] splices), cut to ``limit``."""
    if isinstance(note, str):
        return cut_text(note, limit)
    if isinstance(note, list):
        return [[*edit[:2], cut_text(edit[2], limit)] if isinstance(edit, list) and len(edit) == 3 and isinstance(edit[2], str) else edit for edit in note]
    return note


def event_line(event: EventOut) -> str:
    data = event.model_dump(exclude_none=True)
    kind = event.type
    if kind == "turn":
        action = (event.action or {}).get("type", "no action")
        extra = {k: v for k, v in (event.action or {}).items() if k != "type" and k not in NOTE_KEYS}
        detail = f" {json.dumps(extra, separators=(',', ':'))}" if extra else ""
        line = f"#{event.index} r{event.round} {event.android} {action}{detail}: {event.outcome}"
        if event.outcome != "accepted":
            line += f" [{event.code}] {cut_text(event.reason or '', 160)}"
        return line
    if kind == "round.ended":
        destroyed = data.get("destroyed") or []
        return f"#{event.index} r{event.round} round ended" + (f", destroyed {', '.join(destroyed)}" if destroyed else "")
    if kind == "round.started":
        return f"#{event.index} r{event.round} round started"
    rest = {k: v for k, v in data.items() if k not in ("index", "type")}
    return f"#{event.index} {kind} {json.dumps(rest, separators=(',', ':'))}"


def world_text(world: WorldView) -> str:
    yours = world.yours
    lines = [
        f"{world.game} round {world.round} as {world.player}: {world.visible_tiles} of {world.width * world.height} tiles visible; "
        f"{yours.active_androids} of {yours.capacity} android slots used.",
    ]
    for a in yours.androids:
        state = "" if a.active else " (wreck)"
        lines.append(
            f"your {a.id}{state} at {at_text(a.position)}: battery {points_text(a.battery)}, health {points_text(a.health)}, cargo {materials_text(a.cargo)}"
        )
    for b in yours.buildings:
        site = "" if b.complete else f" (site, owes {materials_text(b.owed)}, {b.remaining_ticks} ticks)"
        stored = f", stores {materials_text(b.storage)}" if b.storage else ""
        lines.append(f"your {b.type} {b.id} at {at_text(b.position)}{site}{stored}")
    lines.append(f"scripts: {', '.join(f'{s.id} ({s.name})' for s in yours.scripts) or 'none'}")
    loose = [t for t in world.tiles if t.scattered]
    if loose:
        lines.append("loose material: " + "; ".join(f"{at_text(t.position)} {materials_text(t.scattered)}" for t in loose))
    for a in world.others.androids:
        lines.append(f"seen: {a.owner_id}'s {a.id}{'' if a.active else ' (wreck)'} at {at_text(a.position)}")
    for b in world.others.buildings:
        lines.append(f"seen: {b.owner_id}'s {b.type}{'' if b.complete else ' site'} at {at_text(b.position)}")
    if world.tile_count > len(world.tiles):
        lines.append(f"(listing tiles {world.tile_offset}-{world.tile_offset + len(world.tiles) - 1} of {world.tile_count}; page with tile_offset)")
    if world.messages:
        lines.append(f"latest broadcasts ({len(world.messages)} of {world.message_count}):")
        lines += [f"  r{m.round} {m.owner_id}/{m.android_id} at {at_text(m.position)}: {cut_text(m.content, 120)}" for m in world.messages]
    return "\n".join(lines)
