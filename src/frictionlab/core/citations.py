"""Collect the papers a run relied on (PyBaMM-style ``citations.register``)."""

from __future__ import annotations

__all__ = ["register", "citations", "reset"]

_USED: dict[str, str] = {}


def register(text: str, doi: str = "") -> None:
    """Record that ``text`` (a reference string) was used in this session."""
    _USED.setdefault(text, doi)


def citations() -> list[str]:
    """References used so far, each with its DOI when known."""
    return [f"{t} doi:{d}" if d else t for t, d in _USED.items()]


def reset() -> None:
    _USED.clear()
