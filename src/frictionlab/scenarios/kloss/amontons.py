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
  is configurable, e = e_ref (F_N/F_ref)^b (S/S_ref)^a (``analysis.gap.load_exponent`` b,
  ``analysis.gap.area_exponent`` a); the reading of the paper is b = -1/2 (eq. 27) and a = -b (a function
  of the pressure).

The friction is the law run at constant velocity, one run per load (``axes.protocol.normal_force_value``)
and speed (``axes.protocol.v``): a rate-independent law, so each run's friction is F(v, F_N) at once.
Block 1 of Fig. 9 is the run at the weight 1 N; block 2's friction is block 1's times eq. 7's ratio of
F_max (eq. 11 is proportional to F_max); the gap law is evaluated by the post step from ``analysis``.
"""

from __future__ import annotations

import numpy as np
import xarray as xr

from ...core.errors import ConfigError
from ...plot import plt
from ..base import Mutation, Scenario, check, deviation, register_scenario
from ._common import REFS, law_of



def speeds(n: int) -> list[float]:
    """The sliding speeds [m/s]: ``n`` log-spaced magnitudes 1e-4 .. 10 m/s in both directions (ours)."""
    pos = np.geomspace(1e-4, 10.0, n)
    return np.concatenate([-pos[::-1], pos]).tolist()


CONFIG = {
    "model": {"name": "kloss", "preset": "fig4a", "normal_scaling": True},
    # each run is one step at its constant velocity and load: the law has no state
    "protocol": {"type": "constant_velocity", "duration_s": 1.0},
    "integrator": {"dt": 1.0},
    # the normal loads [N] (ours) and the speeds
    "axes": {"protocol": {"normal_force_value": [0.5, 1.0, 2.0, 4.0], "v": speeds(61)}},
    "analysis": {"fig9": {"area_ratio": 2.0, "gap_ratio": 2.0},
                 "gap": {"load_exponent": -0.5, "area_exponent": 0.5}},
}
#: the weight of Fig. 9's blocks [N]: a load of the axis
WEIGHT = 1.0
#: relative round-off between two forces that the equations make equal
ROUND_OFF = 1e-12
#: Fig. 9's printed ratios: S_2 = 2 S_1 and e_2 = 2 e_1
PRINTED = {"area_ratio": 2.0, "gap_ratio": 2.0}
HOMOGENEOUS = ("the gap is read as a function of the contact pressure F_N/S alone (Sec. VI: forces 'homogeneously "
               "distributed in the surfaces', the surfaces obeying 'Hooke's law' normally); its exponent -1/2 is what "
               "eq. 27 needs through eq. 7")
_NO_SCALING = Mutation("eq. 27 left out: F_max fixed whatever the normal load", {"model.normal_scaling": False})
_SAME_GAP = Mutation("the gap read as independent of the area (e_2 = e_1)", {"analysis.fig9.gap_ratio": 1.0})
_AREA_GAP = Mutation("a gap growing with the area at a fixed load, e ~ S/sqrt(F_N) (not set by the pressure alone)",
                     {"analysis.gap.area_exponent": 1.0})


def post(result, cfg: dict) -> xr.Dataset:
    """Friction over loads x speeds (the runs), Fig. 9's two blocks, and the gap law's F_max over the loads."""
    law = law_of(cfg)
    loads = np.asarray(result.axis_values("protocol.normal_force_value"), dtype=float)
    v = np.asarray(result.axis_values("protocol.v"), dtype=float)
    first = np.array([float(ds.friction_force.values[-1]) for ds in result.of_run()]).reshape(loads.size, v.size)
    if WEIGHT not in loads:
        raise ConfigError(f"axes.protocol.normal_force_value must hold the weight of Fig. 9's blocks, {WEIGHT:g} N")
    # eq. 7: F_max ~ (S/e)^2; block 1 is the law as configured, block 2 has S and e scaled by Fig. 9's ratios
    an = cfg["analysis"]
    f9 = an["fig9"]
    scale2 = (float(f9["area_ratio"]) / float(f9["gap_ratio"])) ** 2
    block1 = first[int(np.flatnonzero(loads == WEIGHT)[0])]
    blocks = np.array([block1, block1 * scale2])
    # the gap law e = (F_N/F_ref)^b (S/S_ref)^a (F_ref = the first load, S_ref = 1) and F_max of eq. 7 over loads
    a, b = float(an["gap"]["area_exponent"]), float(an["gap"]["load_exponent"])
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
    a1.set(xlabel="slip velocity [m/s]", ylabel="F / F_N")
    a1.set_title("eq. 27: friction / load", fontsize=9)
    for k in range(ds.sizes["block"]):
        a2.semilogx(v[pos], ds.friction_block.values[k][pos], "-" if k == 0 else "--", label=f"block {k + 1}")
    a2.set(xlabel="slip velocity [m/s]", ylabel="friction [N]")
    a2.set_title("eq. 28 (Fig. 9): S_2 = 2 S_1, e_2 = 2 e_1", fontsize=9)
    return fig


register_scenario(Scenario(
    name="kloss/amontons",
    description="""Amontons' first and second laws in the Kloss model (Sec. VI): F_max proportional to the load (eq. 27), the
        Fig. 9 blocks with S_2 = 2 S_1 and e_2 = 2 e_1 (eqs. 7, 28), and whether one gap law of the contact pressure
        gives both.""",
    config=CONFIG, post=post, checks=checks, plot=plot, quick={"axes.protocol.v": speeds(31)}, references=REFS,
    moved={"loads": "axes.protocol.normal_force_value (N)", "speeds": "axes.protocol.v = [...] (m/s)",
           "fig9": "analysis.fig9", "gap": "analysis.gap"},
))
