"""The frictionlab exception hierarchy (ARCHITECTURE section 7).

Every error raised at the boundary of the library is one of these. Messages name the
field, the offending value, the allowed range and, for integration failures, the time,
the step index and what to change.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable

__all__ = [
    "FrictionLabError",
    "ParameterError",
    "ConfigError",
    "IntegrationError",
    "DataError",
    "suggest",
]


class FrictionLabError(Exception):
    """Base class of every error frictionlab raises on purpose."""


class ParameterError(FrictionLabError, ValueError):
    """A model, protocol or system parameter is missing, unknown or out of range."""


class ConfigError(FrictionLabError, ValueError):
    """A scenario file, ``--set`` override, CLI argument or registry name is wrong."""


class IntegrationError(FrictionLabError, RuntimeError):
    """Time integration failed (NaN, blow-up, solver non-convergence)."""

    def __init__(self, message: str, *, time: float | None = None, step: int | None = None):
        super().__init__(message)
        self.time = time
        self.step = step


class DataError(FrictionLabError, ValueError):
    """A data file (CSV, height map, ...) is malformed or inconsistent."""


def suggest(name: str, choices: Iterable[str]) -> str:
    """Return a ``" (did you mean 'x'?)"`` suffix for an unknown ``name``, or ``""``."""
    close = difflib.get_close_matches(str(name), [str(c) for c in choices], n=3, cutoff=0.5)
    if not close:
        return ""
    return " (did you mean " + " or ".join(repr(c) for c in close) + "?)"
