"""Call the ``frictionlab`` entry point in this process: ``(exit status, stdout + stderr)``."""

from __future__ import annotations

from frictionlab.cli import main


def call(args, capsys) -> tuple[int, str]:
    """Run ``frictionlab ARGS`` through :func:`frictionlab.cli.main` (one-line errors, exit codes)."""
    try:
        main([str(a) for a in args])
        code = 0
    except SystemExit as exc:
        code = int(exc.code or 0)
    out = capsys.readouterr()
    return code, out.out + out.err
