"""The ``frictionlab`` command line: the top layer, over the library (nothing below imports it).

:mod:`.main` holds the typer ``app`` and :func:`main`, the entry point of the ``frictionlab``
console script and of ``python -m frictionlab``.
"""

from .main import app, main

__all__ = ["app", "main"]
