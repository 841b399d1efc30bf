"""``kloss/eq5-eq6``: the induced force of the rotor circuit (eqs. 4-5) and the Kloss formula (eq. 6).

Sec. II.B derives eq. 5 "from (4), and by considering the dissipated power on the resistance R",
then rewrites it as eq. 6 with F_max = k_0 Phi_max^2 / 2 and s_max = R/X. The scenario evaluates the
three forms on one slip grid, -1 .. 1 (the machine's braking, motoring and generating slips), for
several ratios R/X:

* eq. 4 solved for the rotor current, I = s E_2 / (R + j s X) (complex phasor), and the force taken
  as the air-gap power over the synchronous speed, F = |I|^2 R / (s omega_s): the rotor's Joule power
  is the slip's share of the air-gap power;
* eq. 5 with k_0 Phi_max^2 = E_2^2 / (omega_s X), what the circuit gives;
* eq. 6 with the printed identifications (``kloss.f_max_factor`` = 1/2, ``kloss.s_max_power`` = 1:
  s_max = (R/X)^1).

The circuit values E_2 = 1, X = 1, omega_s = 1 and the R/X list are ours (the paper prints none;
only R/X and k_0 Phi_max^2 enter).

The three forms are closed forms of the slip, not runs of a friction model: the study has no runs
and the post step evaluates them from ``analysis`` (``circuit``, ``joule``, ``kloss``, ``slip``).
"""

from __future__ import annotations

import numpy as np
import xarray as xr

from ...core.validation import CURVE_BYTES_PER_SAMPLE, check_count
from ...plot import plt
from ..base import Mutation, Scenario, check, register_scenario
from ._common import REFS

CONFIG = {"analysis": {
    "circuit": {"e2": 1.0, "x": 1.0, "omega_s": 1.0, "r_over_x": [0.01, 0.05, 0.2, 1.0]},
    "joule": {"per_slip": True},
    "kloss": {"f_max_factor": 0.5, "s_max_power": 1.0},
    "slip": {"min": -1.0, "max": 1.0, "n": 4001},
}}
#: relative round-off allowed between two algebraically equal forms evaluated in double precision
ROUND_OFF = 1e-12


def post(result, cfg: dict) -> xr.Dataset:
    """Eqs. 4 (+ the Joule power), 5 and 6 on one slip grid for every R/X (no runs)."""
    a = cfg["analysis"]
    c, k, sl = a["circuit"], a["kloss"], a["slip"]
    n = check_count("analysis.slip.n", sl["n"], minimum=3, bytes_each=CURVE_BYTES_PER_SAMPLE)
    ratios = np.asarray(c["r_over_x"], dtype=float)
    s = np.linspace(float(sl["min"]), float(sl["max"]), n)
    s = np.unique(np.concatenate([s, ratios, -ratios]))
    s = s[s != 0.0]  # the circuit's force is 0/0 at zero slip (the Kloss forms give 0 there)
    e2, x, ws = float(c["e2"]), float(c["x"]), float(c["omega_s"])
    k0phi2 = e2 ** 2 / (ws * x)  # what eq. 4 gives for k_0 Phi_max^2
    f4, f5, f6 = (np.empty((ratios.size, s.size)) for _ in range(3))
    for i, q in enumerate(ratios):
        r = q * x
        current = s * e2 / (r + 1j * s * x)  # eq. 4
        joule = np.abs(current) ** 2 * r  # power dissipated in R
        f4[i] = joule / (s * ws) if a["joule"]["per_slip"] else joule / ws
        f5[i] = k0phi2 * q * s / (s ** 2 + q ** 2)  # eq. 5
        f_max = float(k["f_max_factor"]) * k0phi2
        s_max = q ** float(k["s_max_power"])
        f6[i] = 2.0 * f_max * s_max * s / (s ** 2 + s_max ** 2)  # eq. 6
    return xr.Dataset(
        {"force_circuit": (("r_over_x", "slip"), f4, {"units": "N"}),
         "force_eq5": (("r_over_x", "slip"), f5, {"units": "N"}),
         "force_eq6": (("r_over_x", "slip"), f6, {"units": "N"})},
        coords={"r_over_x": ("r_over_x", ratios, {"units": "1"}), "slip": ("slip", s, {"units": "1"})},
        attrs={"k0_phi2": k0phi2})


_NO_SLIP = Mutation("the force taken as the rotor's Joule power itself, not the air-gap power (Joule power / s)",
                    {"analysis.joule.per_slip": False})
_FULL = Mutation("F_max read as k_0 Phi_max^2 (the 1/2 dropped)", {"analysis.kloss.f_max_factor": 1.0})
_INVERSE = Mutation("s_max read as X/R instead of R/X", {"analysis.kloss.s_max_power": -1.0})


def _rel(a: np.ndarray, b: np.ndarray) -> float:
    return float(np.max(np.abs(a - b)) / np.max(np.abs(b)))


def checks(ds: xr.Dataset, cfg: dict) -> list:
    f4, f5, f6 = ds.force_circuit.values, ds.force_eq5.values, ds.force_eq6.values
    s, ratios = ds.slip.values, ds.r_over_x.values
    k0phi2 = float(ds.attrs["k0_phi2"])
    d45, d56 = _rel(f4, f5), _rel(f6, f5)
    rng = f"R/X = {', '.join(f'{q:g}' for q in ratios)}; s = {s.min():g} .. {s.max():g}"
    # eq. 6's own statement: the force is largest, F_max, at the pull-out slip s_max -- where eq. 5 peaks
    rows = np.arange(ratios.size)
    i6, i5 = np.argmax(f6, axis=1), np.argmax(f5, axis=1)
    peak_ok = bool(np.array_equal(i6, i5) and np.allclose(s[i5], ratios, rtol=1e-12)
                   and np.allclose(f6[rows, i6], f5[rows, i5], rtol=ROUND_OFF))
    return [
        check("eq. 5 follows from the rotor circuit, eq. 4, and the power dissipated in R (Sec. II.B)",
              f"max relative difference < {ROUND_OFF:g} ({rng})", d45, d45 < ROUND_OFF, fmt=".2e",
              ambiguity="the force is the air-gap power over the synchronous speed, |I|^2 R / (s omega_s), as in an "
                        "induction machine; the paper says only 'by considering the dissipated power on R'",
              mutations=(_NO_SLIP,)),
        check("eq. 6, with F_max = k_0 Phi_max^2 / 2 and s_max = R/X, is eq. 5 (Sec. II.B)",
              f"max relative difference < {ROUND_OFF:g} ({rng})", d56, d56 < ROUND_OFF, fmt=".2e",
              mutations=(_FULL, _INVERSE)),
        check("eq. 6's maximum F_max at the pull-out slip s_max = R/X is the maximum of eq. 5 (Sec. II.B)",
              f"eq. 5 peaks at s = {', '.join(f'{q:g}' for q in ratios)} with {0.5 * k0phi2:g} = k_0 Phi_max^2 / 2",
              "eq. 6 peaks at s = " + ", ".join(f"{a:.6g}" for a in s[i6]) + " with "
              + ", ".join(f"{v:.6g}" for v in f6[rows, i6]), peak_ok, mutations=(_FULL, _INVERSE)),
    ]


def plot(ds: xr.Dataset):
    fig, ax = plt.subplots(figsize=(6, 4))
    for i, q in enumerate(ds.r_over_x.values):
        line, = ax.plot(ds.slip, ds.force_eq6.isel(r_over_x=i), "-", label=f"eq. 6, s_max = R/X = {q:g}")
        ax.plot(ds.slip[::40], ds.force_circuit.isel(r_over_x=i)[::40], "o", ms=3, color=line.get_color())
    ax.set(xlabel="slip s", ylabel="induced force F_e [N]")
    ax.legend(fontsize=7, title="dots: eq. 4 + Joule power", title_fontsize=7)
    ax.set_title("Rotor circuit (eqs. 4-5) and the Kloss formula (eq. 6)")
    return fig


register_scenario(Scenario(
    name="kloss/eq5-eq6",
    description="""The induced force of the rotor circuit (eq. 4 and the Joule power in R), eq. 5 and the Kloss formula eq. 6
        (F_max = k_0 Phi_max^2 / 2, s_max = R/X) compared on one slip grid for several R/X (Sec. II.B).""",
    config=CONFIG, post=post, checks=checks, plot=plot, quick={"analysis.slip.n": 801}, references=REFS,
    moved={k: f"analysis.{k}" for k in ("circuit", "joule", "kloss", "slip")},
))
