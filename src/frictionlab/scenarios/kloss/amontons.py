"""``kloss/amontons``: the conditions of Sec. VI for Amontons' first and second laws (eqs. 7, 27, 28; Fig. 9).

* First law, eq. 27: with F_max proportional to the normal load (the law's ``normal_scaling``), the
  friction of the model that runs is proportional to F_N at every sliding speed, its Coulomb level
  (eq. 13) included. Law of Fig. 4(a); loads 0.5 .. 4 N and speeds 1e-4 .. 10 m/s are ours.
* Second law, eq. 28: two blocks of one weight on S_1 and S_2 = 2 S_1 whose gaps verify e_2 = 2 e_1
  (Fig. 9, printed ratios) have, by eq. 7 (F_max proportional to (S/e)^2), the same F_max and hence the
  same friction at every speed.
* Both together: Sec. VI explains e_2 = 2 e_1 by the forces being "homogeneously distributed in the
  surfaces" and the surfaces obeying "Hooke's law" in the normal direction, i.e. a gap set by the
  contact pressure p = F_N/S alone. Through eq. 7, eq. 27 then needs e proportional to p^(-1/2), and that
  gap law gives e_2/e_1 = sqrt(2) for Fig. 9, not 2: the wider block has twice the F_max. The gap law
  is configurable, e = e_ref (F_N/F_ref)^b (S/S_ref)^a (``gap.load_exponent`` b, ``gap.area_exponent``
  a); the reading of the paper is b = -1/2 (eq. 27) and a = -b (a function of the pressure).
"""

from __future__ import annotations

import numpy as np
import xarray as xr

from ...plot import plt
from ..base import Mutation, Scenario, check, deviation, register_scenario
from ._common import REFS, law_of

CONFIG = {
    "model": {"name": "kloss", "preset": "fig4a", "normal_scaling": True},
    "loads": [0.5, 1.0, 2.0, 4.0],
    "speeds": {"min": 1e-4, "max": 10.0, "n": 61},
    "fig9": {"area_ratio": 2.0, "gap_ratio": 2.0},
    "gap": {"load_exponent": -0.5, "area_exponent": 0.5},
}
#: relative round-off between two forces that the equations make equal
ROUND_OFF = 1e-12
#: Fig. 9's printed ratios: S_2 = 2 S_1 and e_2 = 2 e_1
PRINTED = {"area_ratio": 2.0, "gap_ratio": 2.0}
HOMOGENEOUS = ("the gap is read as a function of the contact pressure F_N/S alone (Sec. VI: forces 'homogeneously "
               "distributed in the surfaces', the surfaces obeying 'Hooke's law' normally); its exponent -1/2 is what "
               "eq. 27 needs through eq. 7")
_NO_SCALING = Mutation("eq. 27 left out: F_max fixed whatever the normal load", {"model.normal_scaling": False})
_SAME_GAP = Mutation("the gap read as independent of the area (e_2 = e_1)", {"fig9.gap_ratio": 1.0})
_AREA_GAP = Mutation("a gap growing with the area at a fixed load, e ~ S/sqrt(F_N) (not set by the pressure alone)",
                     {"gap.area_exponent": 1.0})


def _speeds(cfg: dict) -> np.ndarray:
    sp = cfg["speeds"]
    pos = np.geomspace(float(sp["min"]), float(sp["max"]), int(sp["n"]))
    return np.concatenate([-pos[::-1], pos])


def _curve(law, v: np.ndarray, normal_force: float) -> np.ndarray:
    """The law's own kernel (what a simulation calls) at each speed."""
    state = law.initial_state()
    return np.array([law.friction(0.0, state, float(vi), normal_force) for vi in v])


def run(cfg: dict, quick: bool) -> xr.Dataset:
    from dataclasses import replace

    law = law_of(cfg)
    v = _speeds(cfg)
    loads = np.asarray(cfg["loads"], dtype=float)
    first = np.array([_curve(law, v, n) for n in loads])
    # eq. 7: F_max ~ (S/e)^2; block 1 is the law as configured, block 2 has S and e scaled by Fig. 9's ratios
    f9 = cfg["fig9"]
    scale2 = (float(f9["area_ratio"]) / float(f9["gap_ratio"])) ** 2
    blocks = np.array([_curve(law, v, 1.0), _curve(replace(law, f_max=law.f_max * scale2), v, 1.0)])
    # the gap law e = (F_N/F_ref)^b (S/S_ref)^a (F_ref = the first load, S_ref = 1) and F_max of eq. 7 over loads
    a, b = float(cfg["gap"]["area_exponent"]), float(cfg["gap"]["load_exponent"])
    gap = (loads / loads[0]) ** b
    fmax_of_load = law.f_max * (1.0 / gap) ** 2
    gap_ratio = float(f9["area_ratio"]) ** a  # same load, area scaled by Fig. 9's ratio
    fmax_ratio = float(f9["area_ratio"]) ** 2 / gap_ratio ** 2
    return xr.Dataset(
        {"friction_force": (("normal_load", "slip_velocity"), first, {"units": "N"}),
         "friction_block": (("block", "slip_velocity"), blocks, {"units": "N"}),
         "gap": ("normal_load", gap, {"units": "1"}), "f_max_of_load": ("normal_load", fmax_of_load, {"units": "N"})},
        coords={"normal_load": ("normal_load", loads, {"units": "N"}), "slip_velocity": ("slip_velocity", v, {"units": "m/s"}),
                "block": ("block", [1, 2], {"units": "1"})},
        attrs={"gap_ratio": gap_ratio, "f_max_ratio": fmax_ratio, "area_exponent": a, "load_exponent": b,
               "f_max": law.f_max, "zeta": law.zeta})


def checks(ds: xr.Dataset, cfg: dict) -> list:
    loads = ds.normal_load.values
    per_load = ds.friction_force.values / loads[:, None]
    spread = float(np.max(np.ptp(per_load, axis=0)) / np.max(np.abs(per_load)))
    far = per_load[:, -1]
    blocks = ds.friction_block.values
    d_blocks = float(np.max(np.abs(blocks[1] - blocks[0])) / np.max(np.abs(blocks[0])))
    out = [
        check("first law: with F_max proportional to the normal load (eq. 27) friction is proportional to F_N at every "
              "sliding speed, the Coulomb level included (Sec. VI)",
              f"F/F_N the same for every load within {ROUND_OFF:g} (relative)",
              f"spread {spread:.2e}; F/F_N at the fastest speed: " + ", ".join(f"{x:.6f}" for x in far),
              spread < ROUND_OFF, mutations=(_NO_SCALING,),
              ambiguity="law of Fig. 4(a); loads 0.5 .. 4 N and speeds 1e-4 .. 10 m/s are ours"),
        check("second law: blocks of one weight on S_2 = 2 S_1 with gaps e_2 = 2 e_1 have the same F_max (eqs. 7, 28) and "
              "the same friction at every speed (Sec. VI, Fig. 9)",
              f"largest relative difference < {ROUND_OFF:g}", f"{d_blocks:.2e}", d_blocks < ROUND_OFF,
              mutations=(_SAME_GAP,)),
    ]
    out.append(_together(ds))
    return out


def _together(ds: xr.Dataset):
    """Eq. 27 and eq. 28 from one gap law: does the gap that gives the first law give Fig. 9's e_2 = 2 e_1?"""
    a, b = float(ds.attrs["area_exponent"]), float(ds.attrs["load_exponent"])
    loads = ds.normal_load.values
    n1 = float(np.polyfit(np.log(loads), np.log(ds.f_max_of_load.values), 1)[0])  # F_max ~ F_N^n1 at fixed S
    ratio, fr = float(ds.attrs["gap_ratio"]), float(ds.attrs["f_max_ratio"])
    claim = ("the gap that gives the first law (eq. 27) also gives e_2 = 2 e_1 under one weight on S_2 = 2 S_1, so both "
             "laws hold together (Sec. VI, Fig. 9)")
    expected = f"F_max ~ F_N (exponent 1) and e_2/e_1 = {PRINTED['gap_ratio']:g} (F_max,2/F_max,1 = 1)"
    measured = f"exponent {n1:.6f}; e_2/e_1 = {ratio:.6g}, F_max,2/F_max,1 = {fr:.6g}"
    if abs(n1 - 1.0) < 1e-9 and abs(ratio - PRINTED["gap_ratio"]) < 1e-9:
        return check(claim, expected, measured, True, ambiguity=HOMOGENEOUS, mutations=(_AREA_GAP,))
    ev = [check("the run's gap law gives eq. 27: F_max of eq. 7 proportional to the load at a fixed area",
                "log-log slope 1 (abs 1e-9)", f"{n1:.12f}", abs(n1 - 1.0) < 1e-9, kind="verification"),
          check("the run's gap law depends on the pressure F_N/S alone (homogeneous forces, a normal spring law)",
                "area exponent = -load exponent", f"a = {a:g}, b = {b:g}", abs(a + b) < 1e-12, kind="verification")]
    return deviation(claim, expected, measured, ev,
                     "through eq. 7 (F_max ~ (S/e)^2) a gap set by the pressure must fall as p^(-1/2) for eq. 27; for "
                     "one weight on twice the area that gap grows by sqrt(2), not 2, and F_max doubles: the conditions "
                     "(27) and (28) cannot both hold with one gap law of the pressure",
                     ambiguity=HOMOGENEOUS, mutations=(_AREA_GAP,))


def plot(ds: xr.Dataset):
    fig, (a1, a2) = plt.subplots(1, 2, figsize=(10, 3.8))
    v = ds.slip_velocity.values
    pos = v > 0
    for k, n in enumerate(ds.normal_load.values):
        a1.semilogx(v[pos], ds.friction_force.values[k][pos] / n, label=f"F_N = {n:g} N")
    a1.set_xlabel("slip velocity [m/s]")
    a1.set_ylabel("F / F_N")
    a1.legend(fontsize=7)
    a1.set_title("eq. 27: friction / load", fontsize=9)
    for k in range(ds.sizes["block"]):
        a2.semilogx(v[pos], ds.friction_block.values[k][pos], "-" if k == 0 else "--", label=f"block {k + 1}")
    a2.set_xlabel("slip velocity [m/s]")
    a2.set_ylabel("friction [N]")
    a2.legend(fontsize=7)
    a2.set_title("eq. 28 (Fig. 9): S_2 = 2 S_1, e_2 = 2 e_1", fontsize=9)
    fig.tight_layout()
    return fig


register_scenario(Scenario(
    name="kloss/amontons",
    description=("Amontons' first and second laws in the Kloss model (Sec. VI): F_max proportional to the load (eq. 27), "
                 "the Fig. 9 blocks with S_2 = 2 S_1 and e_2 = 2 e_1 (eqs. 7, 28), and whether one gap law of the "
                 "contact pressure gives both."),
    config=CONFIG, run=run, checks=checks, plot=plot, quick={"speeds.n": 31}, references=REFS,
))
