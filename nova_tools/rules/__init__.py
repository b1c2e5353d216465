"""Rules as data: the one record of every number the game is played with."""

from .loading import RuleProblem, RulesError, format_path, load, loads, resolve
from .models import BUILDING_TYPES, COMPOSITION, MATERIALS, BuildingRules, Materials, Rules, Sight

__all__ = [
    "BUILDING_TYPES",
    "COMPOSITION",
    "MATERIALS",
    "BuildingRules",
    "Materials",
    "RuleProblem",
    "Rules",
    "RulesError",
    "Sight",
    "format_path",
    "load",
    "loads",
    "resolve",
]
