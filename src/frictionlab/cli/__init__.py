"""The ``frictionlab`` command line: the top layer, over the library (nothing below imports it).

:mod:`.main` holds the typer ``app`` and :func:`main`, the entry point of the ``frictionlab``
console script (``frictionlab.cli:main``) and of ``python -m frictionlab``. Both are exported here, so
``frictionlab.cli.main`` is the function; the module's other names are imported from it by name
(``from frictionlab.cli.main import COMMANDS``). The other modules are one command each, added to ``app``
by its ``register(app)``, besides :mod:`.common` (what they share) and :mod:`.index` (the index that
``list`` and ``show`` print).
"""

from .main import app, main

__all__ = ["app", "main"]
