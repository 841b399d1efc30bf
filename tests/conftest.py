import matplotlib
import pytest

matplotlib.use("Agg")


@pytest.fixture
def cli(capsys):
    """``cli(argv) -> (exit code, stdout, stderr)``: ``frictionlab ARGV`` run in this process."""
    from frictionlab.cli import main

    def run(argv) -> tuple[int, str, str]:
        try:
            main([str(a) for a in argv])
            code = 0
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
        out, err = capsys.readouterr()
        return code, out, err

    return run
