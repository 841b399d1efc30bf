"""Named scenarios reproducing the papers' numerical experiments."""

from .base import Check, Scenario, check, get_scenario, load_scenario, register_scenario, scenario_names, select

__all__ = ["Check", "Scenario", "check", "get_scenario", "load_scenario", "register_scenario", "scenario_names", "select"]
