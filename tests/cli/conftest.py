"""Shared fixtures of the CLI tests."""

from __future__ import annotations

import pytest


def _sigint_default() -> None:
    import signal

    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.fixture
def ctrl_c_child():
    """``preexec_fn`` for a child process that must take Ctrl-C as a terminal's foreground job does.

    A process started from a background job of a non-interactive shell inherits SIGINT ignored,
    and Python then installs no KeyboardInterrupt handler: a SIGINT test run by such a harness
    would hang instead of testing the CLI. The child gets SIGINT's default back before Python
    starts, so Python installs its handler as in a terminal."""
    return _sigint_default
