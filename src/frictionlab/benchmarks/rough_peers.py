"""Static elastic rough-contact solve on the peers' terms (issue 32): ``frictionlab bench rough_contact --peers``.

One periodic self-affine surface (Persson's spectrum, Hurst exponent 0.8, roll-off at 4 and short
cut-off at n/4 wavelengths per side, rms slope 0.1; the kind of problem tamaas' and
ContactMechanics' examples solve) under one mean pressure (3-4 % contact), handed unchanged to
tamaas ``PolonskyKeerRey`` (E* = 1/pi so that its Green's function equals ours), to our
:func:`~frictionlab.contact.rough.solver.pk_solve` (default, and without the preconditioner) and to
the SI-units :func:`~frictionlab.contact.rough.physical.solve_contact`, at tolerance 1e-6 each
(ours: relative L1 change of the forces per iteration; tamaas: its own complementarity error).

Timing: CPU seconds (``time.process_time``: every thread of the process), the codes interleaved,
median of the repeats; every timed call reads its result inside the timing (the contact count
of the returned pressure field). Reported per size: CPU ratio to tamaas, iterations, operator
products per iteration, the ratio to the limit (one rfft2 + irfft2 pair per iteration, timed
here), the peak RSS growth of one solve in a fresh process, and the agreement with tamaas
(contact elements differing, relative L1 difference of the pressure field). Our own set-up
(Gaussian surface beta = 10, 100 MPa, ~1.6 % contact; ``bench_rough_contact``) follows as a
second, labelled line. ContactMechanics is optional (``pip install contactmechanics``); a row
says when it is not installed.
"""

from __future__ import annotations

import math
import statistics
import subprocess
import sys
import time

import numpy as np

TOL = 1e-6
OURS = ("pk_solve", "pk_solve(precondition=False)", "solve_contact")
REPEATS = 3
#: mean pressure / E*: 3.5 % contact at 512^2, 4.0 % at 256^2 on this surface
PRESSURE = 0.03 * 0.1 / (2 * math.pi)


def peers_problem(n: int) -> tuple[np.ndarray, float]:
    """Heights (pixel units, top at 0) and mean pressure (units of E* = 1/pi) of the peers' problem."""
    from frictionlab.contact.rough.self_affine import self_affine_surface

    h = self_affine_surface(n, 1.0, hurst=0.8, rms_slope=0.1, q_rolloff=2 * math.pi * 4 / n,
                            q_short=2 * math.pi / 4, seed=0)
    return h - h.max(), PRESSURE


def own_problem(n: int) -> tuple[np.ndarray, float]:
    """Our own benchmark's problem (Gaussian surface, 100 MPa) as heights and mean pressure."""
    from frictionlab.contact.rough.model import load_from_pressure
    from frictionlab.contact.rough.surface import make_surface

    return make_surface(n, n, seed=0), load_from_pressure(100e6, n, n) / (n * n)


def _ours(h: np.ndarray, pm: float, precondition: bool | None):
    from frictionlab.contact.rough.elasticity import BoussinesqFFT, StepOperator
    from frictionlab.contact.rough.solver import pk_solve

    op = StepOperator(BoussinesqFFT(*h.shape, periodic=True))
    t = time.process_time()
    r = pk_solve(op, h, pm * h.size, tol=TOL, precondition=precondition)
    nc = int(np.count_nonzero(r.p > 0))
    return time.process_time() - t, np.asarray(r.p), nc, r.iterations, r.products


def _solve_contact(h: np.ndarray, pm: float):
    from frictionlab.contact.rough.physical import solve_contact

    t = time.process_time()
    s = solve_contact(h, 1.0, youngs_modulus=1 / math.pi, poisson_ratio=0.0, pressure=pm, tol=TOL)
    nc = int(np.count_nonzero(s.pressure > 0))
    return time.process_time() - t, np.asarray(s.pressure), nc, s.iterations, -1


def _tamaas(h: np.ndarray, pm: float):
    import tamaas as tm

    n = h.shape[0]
    tm.set_log_level(tm.LogLevel.error)
    model = tm.ModelFactory.createModel(tm.model_type.basic_2d, [float(n), float(n)], [n, n])
    model.E, model.nu = 1 / math.pi, 0.0
    solver = tm.PolonskyKeerRey(model, h.copy(), TOL)
    t = time.process_time()
    solver.solve(pm)
    p = np.array(model.traction)
    nc = int(np.count_nonzero(p > 0))
    return time.process_time() - t, p, nc, -1, -1


def _contactmechanics(h: np.ndarray, pm: float):
    from ContactMechanics.FFTElasticHalfSpace import PeriodicFFTElasticHalfSpace
    from ContactMechanics.Optimization.ConstrainedConjugateGradients import constrained_conjugate_gradients
    from SurfaceTopography import Topography

    n = h.shape[0]
    sub = PeriodicFFTElasticHalfSpace((n, n), 1 / math.pi, (float(n), float(n)))
    topo = Topography(h, (float(n), float(n)), periodic=True)
    t = time.process_time()
    r = constrained_conjugate_gradients(sub, topo, external_force=pm * n * n, pentol=TOL, forcetol=TOL)
    p = np.array(r.jac)
    nc = int(np.count_nonzero(p > 0))
    return time.process_time() - t, p, nc, int(getattr(r, "nit", -1)), -1


def _fft_pair(n: int) -> float:
    """CPU seconds of one rfft2 + irfft2 pair of an n x n field (numpy.fft, median of 7)."""
    x = np.random.default_rng(0).random((n, n))
    ts = []
    for _ in range(7):
        t = time.process_time()
        y = np.fft.irfft2(np.fft.rfft2(x), s=x.shape)
        ts.append(time.process_time() - t)
    assert y.shape == x.shape
    return statistics.median(ts)


def _mem_child(kind: str, n: int) -> None:
    """Child process: peak RSS growth [MiB] of one solve over the RSS after set-up (the
    high-water mark reset before the solve, so import and compile peaks do not count)."""
    from frictionlab.benchmarks.bench_rough_contact import rss, status

    h, pm = peers_problem(n)
    fn = {"pk_solve": lambda a, b: _ours(a, b, None), "solve_contact": _solve_contact, "tamaas": _tamaas}[kind]
    fn(h[:32, :32] - h[:32, :32].max(), pm)  # compile, import
    before = rss()
    fn(h, pm)
    print(f"{max(status('VmHWM') - before, 0.0):.1f}")


def _memory(kind: str, n: int) -> float:
    r = subprocess.run([sys.executable, "-m", "frictionlab.benchmarks.rough_peers", "--mem", kind, str(n)],
                       capture_output=True, text=True, timeout=600)
    if r.returncode != 0:
        return float("nan")
    return float(r.stdout.split()[-1])


def _agreement(p: np.ndarray, ref: np.ndarray) -> str:
    return (f"contact elements differing {int(np.count_nonzero((p > 0) != (ref > 0)))}, "
            f"pressure rel. L1 diff {np.abs(p - ref).sum() / np.abs(ref).sum():.1e}")


def _size(n: int, problem, label: str, memory: bool) -> list[tuple[str, float, str, str]]:
    h, pm = problem(n)
    codes = {"pk_solve": lambda: _ours(h, pm, None), "pk_solve(precondition=False)": lambda: _ours(h, pm, False),
             "solve_contact": lambda: _solve_contact(h, pm)}
    try:
        import tamaas  # noqa: F401

        codes["tamaas"] = lambda: _tamaas(h, pm)
    except ImportError:
        pass
    try:
        import ContactMechanics  # noqa: F401

        codes["ContactMechanics"] = lambda: _contactmechanics(h, pm)
    except ImportError:
        pass
    _ours(h[:32, :32] - h[:32, :32].max(), pm, None)  # compile the kernels outside the timing
    times: dict[str, list[float]] = {k: [] for k in codes}
    last = {}
    for _ in range(REPEATS):  # interleaved
        for k, fn in codes.items():
            last[k] = fn()
            times[k].append(last[k][0])
    med = {k: statistics.median(v) for k, v in times.items()}
    pair = _fft_pair(n)
    tag = f"{label} {n}^2"
    out = []
    ref = last.get("tamaas")
    for k in codes:
        dt, p, nc, it, prod = last[k]
        extra = [f"{100 * nc / p.size:.2f} % contact"]
        if it > 0:
            extra.append(f"{it} it")
        if prod > 0:
            extra.append(f"{prod / it:.2f} products/it; {med[k] / (pair * it):.1f}x the limit "
                         f"(1 FFT pair x it = {1e3 * pair * it:.0f} ms)")
        if ref is not None and k != "tamaas":
            extra.append(_agreement(p, ref[1]))
        if ref is not None and k != "tamaas":
            target = "<= 0.5 (issue 32); " if k in OURS else ""
            out.append((f"{tag}: {k} / tamaas CPU", med[k] / med["tamaas"], "1", target + "; ".join(extra)))
        else:
            out.append((f"{tag}: {k} CPU", med[k], "s", "; ".join(extra)))
        if memory and k in ("pk_solve", "solve_contact", "tamaas"):
            out.append((f"{tag}: {k} solve peak RSS growth (fresh process)", _memory(k, n), "MiB",
                        "<= tamaas (issue 32)" if k in OURS else "-"))
    if ref is None:
        out.append((f"{tag}: tamaas", float("nan"), "-", "not installed (pip install frictionlab[peers])"))
    if "ContactMechanics" not in codes:
        out.append((f"{tag}: ContactMechanics", float("nan"), "-", "not installed (optional)"))
    return out


def run_peers(quick: bool) -> list[tuple[str, float, str, str]]:
    """Rows of ``frictionlab bench rough_contact --peers`` (module docstring)."""
    out: list[tuple[str, float, str, str]] = []
    for n in ((256,) if quick else (256, 512)):
        out += _size(n, peers_problem, "peers' problem (self-affine)", memory=not quick)
    n = 256 if quick else 512
    out += _size(n, own_problem, "own set-up (Gaussian, 100 MPa)", memory=False)
    return out


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "--mem":
        _mem_child(sys.argv[2], int(sys.argv[3]))
