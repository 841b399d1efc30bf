"""The reproduce report: run scenarios, check claims, write report.md and report.html."""

from .reproduce import ScenarioOutcome, reproduce, write_report

__all__ = ["ScenarioOutcome", "reproduce", "write_report"]
