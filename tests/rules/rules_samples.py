"""Rules files shared by the rules tests."""

RULEBOOK_EXAMPLE = """\
// rules.json — a complete rules file
{
  "world": { "width": 24, "height": 24 },
  "android": { "cargoCapacity": 6 },
  "buildings": { "depot": { "cost": { "metal": 4 }, "ticks": 1 } },
}
"""
