"""The ``frictionlab`` command line (ARCHITECTURE section 6). Thin: no physics here.

Each command lives in its own module of this package (``run``, ``reproduce``, ``bench``, ``show``:
``list`` and ``show``, ``data``, ``fit``, ``sweep``, ``compare``, ``export``), which adds it to
:data:`app` through its ``register(app)``; :data:`COMMANDS` lists them in the order of ``--help``.

Exit codes: 0 success; 1 a check failed (``run``, ``reproduce``; a proven deviation of the paper is
listed as such and is not a failure), a sweep point failed, or
an internal error; 2 a bad input (every :class:`FrictionLabError` and every usage error,
printed as one plain line); 130 interrupted (Ctrl-C), with one line saying what was
written where. Tracebacks are shown only with ``--debug``. Tested with typer 0.29 (which
vendors its own click) and with older typer on the public ``click``: :func:`main` catches
the exception classes of whichever click typer actually runs on.
"""

from __future__ import annotations

import shlex
import sys
from typing import Annotated, Optional

import typer
from rich.markup import escape

from ..core.errors import FrictionLabError
from . import bench, common, compare, data, export, fit, reproduce, run, show, sweep
from .common import err_console, say

# rich_markup_mode=None: help texts are plain text, so "[parallel]" or "[kg]" is printed, not taken as markup
app = typer.Typer(add_completion=False, no_args_is_help=True, rich_markup_mode=None,
                  help="Friction models: simulate, reproduce, fit, compare.")


@app.callback()
def _root(debug: Annotated[bool, typer.Option("--debug", help="show tracebacks on errors")] = False,
          threads: Annotated[Optional[int], typer.Option(
              "--threads", help="thread budget of the threaded hot paths (FFT above its size crossover, numba "
                                "parallel loops); sets FRICTIONLAB_THREADS")] = None,
          max_memory: Annotated[Optional[str], typer.Option(
              "--max-memory", help="most memory a run may plan to use, e.g. 8G (default: half of the machine's); "
                                   "runs estimated above it are refused before they start; sets FRICTIONLAB_MAX_MEMORY")]
          = None) -> None:
    """frictionlab: friction models from five research works behind one interface."""
    if max_memory is not None:
        import os

        from ..core.validation import MEMORY_ENV, parse_bytes

        parse_bytes(max_memory, "--max-memory")
        os.environ[MEMORY_ENV] = max_memory
    if threads is not None:
        from ..core.threads import set_thread_limit

        set_thread_limit(threads)


#: the command modules, in the order ``frictionlab --help`` lists their commands (groups such as ``data`` last)
COMMANDS = (run, reproduce, bench, show, data, fit, sweep, compare, export)

for _command in COMMANDS:
    _command.register(app)


def _click_classes() -> tuple[tuple[type, ...], tuple[type, ...], tuple[type, ...]]:
    """(usage-error, exit, abort) exception classes of the click typer runs on.

    typer >= 0.2x vendors click as ``typer._click`` (its exceptions are not the public
    ``click``'s); older typer raises the public ``click`` exceptions. Both are caught.
    """
    usage: list[type] = []
    exits: list[type] = [typer.Exit]
    aborts: list[type] = [typer.Abort]
    try:
        from typer._click.exceptions import ClickException as VendoredClickException

        usage.append(VendoredClickException)
    except ImportError:
        pass
    try:
        import click

        usage.append(click.ClickException)
        exits.append(click.exceptions.Exit)
        aborts.append(click.exceptions.Abort)
    except ImportError:
        pass
    return tuple(usage), tuple(exits), tuple(aborts)


#: a word of an error message longer than this is cut (a 5 MB value echoed back helps no one)
MAX_WORD = 200


#: an error message longer than this is cut in its middle
MAX_MESSAGE = 2000


def _one_line(text: str) -> str:
    """``text`` on one line, each word longer than :data:`MAX_WORD` characters cut to its start and
    end, and the whole cut in its middle beyond :data:`MAX_MESSAGE`."""
    line = " ".join(w if len(w) <= MAX_WORD else f"{w[:60]}...({len(w) - 80:,} characters cut)...{w[-20:]}"
                    for w in str(text).split())
    if len(line) > MAX_MESSAGE:
        line = f"{line[:MAX_MESSAGE - 500]} ...({len(line) - MAX_MESSAGE + 100:,} characters cut)... {line[-400:]}"
    return line


def _usage_line(exc: BaseException) -> str:
    ctx = getattr(exc, "ctx", None)
    msg = exc.format_message() if hasattr(exc, "format_message") else str(exc)
    if ctx is not None and type(exc).__name__ != "NoArgsIsHelpError":
        return f"{ctx.command_path}: {_one_line(msg)} (see '{ctx.command_path} --help')"
    return _one_line(msg)


def main(argv: list[str] | None = None) -> None:
    """Entry point of the ``frictionlab`` command (``argv`` defaults to ``sys.argv[1:]``).

    Never lets a traceback reach the user without ``--debug``: a :class:`FrictionLabError`
    or a usage error is one plain line and exit 2, an OS error (a file that cannot be
    read or written) one line and exit 2, Ctrl-C exit 130, anything else (a bug) one line
    naming the exception and exit 1.
    """
    import os

    # the command draws to files only: a non-interactive backend unless the user chose one (the plot
    # helpers never pick a backend, so a notebook keeps its own)
    os.environ.setdefault("MPLBACKEND", "Agg")
    args = list(sys.argv[1:] if argv is None else argv)
    from ..core.provenance import set_command

    set_command("frictionlab " + shlex.join(args))
    debug = common.DEBUG = "--debug" in args
    if debug:  # a root option, accepted anywhere on the line (`frictionlab run x --debug`)
        args = ["--debug", *(a for a in args if a != "--debug")]
    usage_errors, exits, aborts = _click_classes()
    try:
        rv = app(args=args, prog_name="frictionlab", standalone_mode=False)
    except SystemExit:
        raise
    except KeyboardInterrupt:
        say("interrupted", err=True)
        raise SystemExit(130) from None
    except (FrictionLabError, OSError) as exc:  # a bad input, a file that cannot be read or written
        if debug:
            raise
        err_console.print("[red]error:[/red] " + escape(_one_line(exc)), highlight=False, soft_wrap=True)
        raise SystemExit(2) from None
    except exits as exc:
        rv = exc.exit_code
    except aborts:
        say("aborted", err=True)
        raise SystemExit(130) from None
    except usage_errors as exc:
        if debug:
            raise
        if type(exc).__name__ == "NoArgsIsHelpError":  # bare `frictionlab` or `frictionlab sweep`: the help
            say(exc.format_message(), err=True)
        else:
            err_console.print("[red]error:[/red] " + escape(_usage_line(exc)), highlight=False, soft_wrap=True)
        raise SystemExit(getattr(exc, "exit_code", 2) or 2) from None
    except Exception as exc:  # a bug: one line, the traceback with --debug
        from ..report.reproduce import _interrupted

        if _interrupted(exc):  # Ctrl-C inside a compiled loop, raised as a SystemError caused by it
            say("interrupted", err=True)
            raise SystemExit(130) from None
        if debug:
            raise
        err_console.print("[red]internal error:[/red] " + escape(_one_line(f"{type(exc).__name__}: {exc}"))
                          + " (a bug in frictionlab; rerun with --debug for the traceback)",
                          highlight=False, soft_wrap=True)
        raise SystemExit(1) from None
    if isinstance(rv, int) and not isinstance(rv, bool) and rv != 0:
        if rv == 130:  # typer turned a Ctrl-C into Exit(130)
            say("interrupted; no output of this command was left half-written", err=True)
        raise SystemExit(rv)
