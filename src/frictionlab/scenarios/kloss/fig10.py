"""``kloss/fig10``: tyre longitudinal force vs slip, Kloss slip form (Fig. 10, eqs. 31-32).

F_max = 1.227, s_max0 = 5.55 %, zeta = 0.46 (paper), s_y ~ 0, forces normalised by F_N.

Notes
-----
The measured flat-track data and the 93.01 % FIT are from ref. [24] and are not
available (not testable); the landmarks of the figure's curve (eqs. 31-32) are checked. A fit of
the slip form to a real tyre's MF 5.2 curve is ``kloss/tyre-mf52-fit``.

The figure is the closed form of eqs. 31-32 over the slip ratio (in %), not a sliding run: the
study has no runs and the post step evaluates it from ``analysis.law`` (F_max, s_max0, zeta) on
``analysis.curve``'s grid.
"""

from __future__ import annotations

import numpy as np
import xarray as xr

from ...core.validation import CURVE_BYTES_PER_SAMPLE, check_count
from ...laws.kloss import kloss_slip
from ...plot import curves
from ...reference import kloss as ref
from ..base import Mutation, Scenario, check, not_testable, register_scenario
from ._common import REFS, curve_dataset, law_moved

CONFIG = {"analysis": {"law": {"f_max": 1.227, "s_max0": 5.55, "zeta": 0.46},
                       "curve": {"s_min": -100.0, "s_max": 100.0, "n": 4001}}}


def post(result, cfg: dict) -> xr.Dataset:
    """The slip form F_x/F_N (eqs. 31-32) on the curve's grid and at its closed-form peak (no runs)."""
    m, c = cfg["analysis"]["law"], cfg["analysis"]["curve"]
    n = check_count("analysis.curve.n", c["n"], minimum=2, bytes_each=CURVE_BYTES_PER_SAMPLE)
    s = np.unique(np.concatenate([np.linspace(c["s_min"], c["s_max"], n),
                                  [ref.peak_velocity(m["s_max0"], m["zeta"])]]))
    return curve_dataset("slip_ratio", s, {"slip_ratio": "%", "force_ratio": "1"},
                         {"force_ratio": kloss_slip(s, m["f_max"], m["s_max0"], m["zeta"])}, dict(m))


_FMAX = Mutation("F_max read as 1.3", {"analysis.law.f_max": 1.3})
_SMAX = Mutation("s_max0 read as 6 %", {"analysis.law.s_max0": 6.0})
_ZETA = Mutation("zeta read as 0.3", {"analysis.law.zeta": 0.3})


def checks(ds: xr.Dataset, cfg: dict) -> list:
    m = cfg["analysis"]["law"]
    s, f = ds.slip_ratio.values, ds.force_ratio.values
    i = int(np.argmax(f))
    h = 1e-6
    slope = float((kloss_slip(h, **m) - kloss_slip(-h, **m)) / (2 * h))
    f100 = float(kloss_slip(100.0, **m))
    asym = float(kloss_slip(1e9, **m))
    return [
        check("the figure's curve: slope at 0 equal to 2 F_max / s_max0 (eqs. 31-32, Fig. 10 parameters)",
              "0.44216 per % (abs 1e-5)", slope, abs(slope - 0.44216) < 1e-5, fmt=".6f", mutations=(_SMAX, _FMAX)),
        check("the figure's curve: peak F_max = 1.227 at s = s_max0/(1 - zeta/2) (eq. 12 for slip)", "1.227 at 7.2078 %",
              f"{f[i]:.6f} at {s[i]:.4f} %", abs(f[i] - 1.227) < 1e-9 and abs(s[i] - 7.2078) < 1e-4,
              mutations=(_SMAX, _FMAX, _ZETA)),
        check("the figure's curve: F(100 %) (eqs. 31-32)", "0.64781 (abs 1e-5)", f100, abs(f100 - 0.64781) < 1e-5,
              fmt=".5f", mutations=(_ZETA,)),
        check("the figure's curve: asymptote zeta F_max/(1 + zeta^2/4) (eq. 13)", "0.53606 (abs 1e-5)", asym,
              abs(asym - 0.53606) < 1e-5, fmt=".5f", mutations=(_ZETA, _FMAX)),
        not_testable("the slip form fits the flat-track measurements with FIT 93.01 % (Fig. 10)",
                     "the measurements are those of [24], which the paper does not print; kloss/tyre-mf52-fit fits "
                     "a real tyre's MF 5.2 curves instead (extension)", expected="FIT 93.01 %"),
    ]


def plot(ds: xr.Dataset):
    return curves(ds.slip_ratio, {"Kloss slip form": ds.force_ratio}, styles={"Kloss slip form": "g-"},
                  xlabel="longitudinal slip s_x [%]", ylabel="F_x / F_N", title="Tyre longitudinal force (Fig. 10 parameters)")


register_scenario(Scenario(
    name="kloss/fig10",
    description="Tyre F_x/F_N vs longitudinal slip, Kloss slip form F_max 1.227, s_max0 5.55 %, zeta 0.46 (Fig. 10).",
    config=CONFIG, post=post, checks=checks, plot=plot, quick={"analysis.curve.n": 801}, references=REFS,
    moved=law_moved("slip form's F_max, s_max0, zeta", "slip ratio"),
))
