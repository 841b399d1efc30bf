"""``beam-network/fig12``: stick-slip amplitude and period vs velocity and vs normal load.

The beam-network paper (doi:10.1115/1.4042247), Fig. 12 (MLBNM): at 88 N both amplitude and period fall with the
sliding velocity and stick-slip disappears above v_c (VF60 about 3.5e-3 m/s, VF40 about
7.5e-4 m/s); at fixed velocity (VF60 7.5e-4, VF40 1.25e-4 m/s) both grow with the load and
there is smooth sliding below a minimum load.

Notes
-----
Presets ``vf60-calibrated`` and ``vf40-calibrated``; the VF40 model parameters are not
printed (the VF40 preset scales k_b with E, an assumption). Loads other than 88 N scale
the Fig. 7 distribution proportionally (spec 3.6). Each case runs ``duration`` seconds from
rest; metrics use the last 40 % (spec S9 rule: >= 3 peaks of prominence > 2 %).
"""

from __future__ import annotations

from ...plot import plt
import numpy as np
import xarray as xr

from ...analysis.beam_patterns import steady_metrics

from ...contact.beam_network.stability import band_edges
from ..base import Scenario, check, deviation, register_scenario
from ._common import (CALIBRATION_NOTE, NUMERICS, REFERENCES, linear_stability_evidence, params_from, rank_corr, check_integrator, run_batch, duration)

CONFIG = {
    "model": {"name": "beam_network"},
    "materials": {"vf60": "vf60-calibrated", "vf40": "vf40-calibrated"},
    "velocity_sweep": {"velocities": [1.25e-4, 2.5e-4, 5e-4, 7.5e-4, 1e-3, 1.5e-3, 2e-3, 2.5e-3, 3e-3, 3.5e-3,
                                      4.5e-3], "normal_load": 88.0},
    # 5-20 N: below the minimum load the closed form predicts at 7.5e-4 m/s (unit beam: 5-10 N)
    "load_sweep": {"loads": [5.0, 10.0, 20.0, 40.0, 55.0, 70.0, 88.0, 100.0, 115.0], "v_vf60": 7.5e-4, "v_vf40": 1.25e-4},
    "protocol": {"type": "constant_velocity", "duration_s": 20.0},
    "integrator": dict(NUMERICS),
    "claims": {"vc_vf60": 3.5e-3, "vc_vf40": 7.5e-4},
    # VF40's model parameters are not printed: the only printed set (Table 3, VF40 E and rho) is analysed too
    "printed": {"vf40": "vf40-table3", "cb": [0.0, 7.4, 148.0, 590.0]},
}

_WHY40 = ("VF40's model parameters are not printed; with the only printed set (Table 3 with VF40's E and rho) the unit "
          "beam is linearly stable at 1.25e-4 m/s for every load and c_b, and its critical velocity (upper edge of the "
          "instability band) is at several cm/s for every c_b, not near 7.5e-4 m/s, so Fig. 12e-h's VF40 stick-slip cannot come from it "
          "(our assumed preset vf40-calibrated, k_b scaled by E40/E60, is stable at 1.25e-4 m/s as well)")


# the VF40 claims the evidence speaks to: stick-slip at 1.25e-4 m/s (Fig. 12g/h) and v_c40
_VF40_COVERED = ("vf40: stick-slip disappears", "vf40: amplitude increases with normal load",
                 "vf40: period increases with normal load", "vf40: smooth sliding below a minimum load")


def _vf40_evidence(ds: xr.Dataset, cfg: dict) -> list:
    L = ds.normal_load.values
    v40 = float(cfg["load_sweep"]["v_vf40"])
    cbs = [float(c) for c in cfg["printed"]["cb"]]
    pt = params_from({"model": {"name": "beam_network", "preset": cfg["printed"]["vf40"]}})
    pc = params_from({"model": {"name": "beam_network", "preset": cfg["materials"]["vf40"]}})
    ev = [linear_stability_evidence([pt.replace(cb=c, normal_load=float(x)) for c in cbs for x in L], v40,
                                    f"the printed VF40 set, {v40:g} m/s, every load and c_b = "
                                    + ", ".join(f"{c:g}" for c in cbs)),
          linear_stability_evidence([pc.replace(normal_load=float(x)) for x in L], v40,
                                    f"the assumed preset vf40-calibrated, {v40:g} m/s, every load")]
    vg = np.geomspace(1e-5, 0.1, 1201)
    edges = [band_edges(pt.replace(cb=c, normal_load=88.0), vg) for c in cbs]
    claim = float(cfg["claims"]["vc_vf40"])
    near = [e[1] for e in edges if np.isfinite(e[1]) and claim / 2 <= e[1] <= 2 * claim]
    ev.append(check("closed-form critical velocity (upper band edge) of the printed VF40 set at 88 N",
                    f"no c_b puts it within a factor 2 of {claim:g} m/s",
                    "; ".join(f"c_b {c:g}: {e[1]:.3g} m/s" for c, e in zip(cbs, edges)), not near))
    return ev


def _metrics(cases, cfg):
    n = check_integrator(cfg)
    ps = [c[0] for c in cases]
    r = run_batch(ps, [c[1] for c in cases], duration(cfg), dt=float(n["dt"]),
                        save_dt=float(n["save_dt"]), scheme=n["scheme"], n_picard=int(n["n_picard"]))
    return [steady_metrics(r["time"], F) for F in r["friction_force"]]


def run(cfg: dict, quick: bool) -> xr.Dataset:
    mats = list(cfg["materials"])
    vel = np.asarray(cfg["velocity_sweep"]["velocities"], float)
    loads = np.asarray(cfg["load_sweep"]["loads"], float)
    Fz0 = float(cfg["velocity_sweep"]["normal_load"])
    cases, keys = [], []
    for mat in mats:
        base = params_from({"model": {"name": "beam_network", "preset": cfg["materials"][mat],
                                      **{k: v for k, v in cfg["model"].items() if k not in ("name", "preset")}}})
        for v in vel:
            cases.append((base.replace(normal_load=Fz0), float(v)))
            keys.append(("v", mat, v))
        for L in loads:
            cases.append((base.replace(normal_load=float(L)), float(cfg["load_sweep"][f"v_{mat}"])))
            keys.append(("L", mat, L))
    # batches must share the Stribeck parameters: run per material
    mets = []
    for mat in mats:
        sub = [c for c, k in zip(cases, keys) if k[1] == mat]
        mets += _metrics(sub, cfg)
    shape_v, shape_l = (len(mats), vel.size), (len(mats), loads.size)
    out = {nm: (np.full(shape_v, np.nan), np.full(shape_l, np.nan)) for nm in ("amplitude", "period", "kappa",
                                                                               "stick_slip", "mean_force")}
    for (kind, mat, val), m in zip(keys, mets):
        i = mats.index(mat)
        j = int(np.nonzero((vel if kind == "v" else loads) == val)[0][0])
        for nm in out:
            out[nm][0 if kind == "v" else 1][i, j] = float(getattr(m, nm))
    ds = xr.Dataset(coords={"material": ("material", mats), "velocity": ("velocity", vel, {"units": "m/s"}),
                            "normal_load": ("normal_load", loads, {"units": "N"})})
    units = {"amplitude": "N", "period": "s", "kappa": "1", "stick_slip": "1", "mean_force": "N"}
    for nm, (a, b) in out.items():
        ds[f"{nm}_vs_velocity"] = (("material", "velocity"), a, {"units": units[nm]})
        ds[f"{nm}_vs_load"] = (("material", "normal_load"), b, {"units": units[nm]})
    ds.attrs["duration"] = duration(cfg)
    return ds


def _critical(v, ss):
    """First velocity above the last stick-slip one (nan when all or none stick-slip)."""
    ss = np.asarray(ss) > 0.5
    if not ss.any() or ss.all():
        return float("nan")
    last = int(np.nonzero(ss)[0].max())
    return float(v[last + 1]) if last + 1 < v.size else float("nan")


def checks(ds: xr.Dataset, cfg: dict) -> list:
    out = []
    v = ds.velocity.values
    L = ds.normal_load.values
    ev40 = _vf40_evidence(ds, cfg) if "vf40" in ds.material.values else []

    def add(c):  # a failed VF40 claim is a deviation when the printed set cannot give it
        if c.status == "fail" and c.claim.startswith(_VF40_COVERED):
            c = deviation(c.claim, c.expected, c.measured, ev40, _WHY40, ambiguity=c.ambiguity)
        out.append(c)

    for mat in ds.material.values:
        ss_v = ds.stick_slip_vs_velocity.sel(material=mat).values
        amp_v = ds.amplitude_vs_velocity.sel(material=mat).values
        per_v = ds.period_vs_velocity.sel(material=mat).values
        n_ss = int(np.nansum(ss_v))
        ra, rp = rank_corr(v, amp_v), rank_corr(v, per_v)
        amb = CALIBRATION_NOTE if mat == "vf60" else "VF40 parameters not printed: vf60 calibration with k_b x E40/E60"
        add(check(f"{mat}: amplitude decreases with velocity at 88 N (Fig. 12a/e)",
                  "rank correlation < 0 over >= 3 stick-slip points", f"{ra:.3g} ({n_ss} stick-slip points)",
                  n_ss >= 3 and ra < 0, ambiguity=amb))
        add(check(f"{mat}: period t_ss decreases with velocity at 88 N (Fig. 12b/f)",
                  "rank correlation < 0 over >= 3 stick-slip points", f"{rp:.3g}", n_ss >= 3 and rp < 0))
        vc = _critical(v, ss_v)
        vc_claim = float(cfg["claims"][f"vc_{mat}"])
        add(check(f"{mat}: stick-slip disappears above a critical velocity v_c ~ {vc_claim:g} m/s",
                  f"smooth sliding from v_c on, v_c within a factor 2 of {vc_claim:g} m/s",
                  f"{vc:.3g} m/s", np.isfinite(vc) and vc_claim / 2 <= vc <= 2 * vc_claim))
        ss_l = ds.stick_slip_vs_load.sel(material=mat).values
        amp_l = ds.amplitude_vs_load.sel(material=mat).values
        per_l = ds.period_vs_load.sel(material=mat).values
        n_l = int(np.nansum(ss_l))
        add(check(f"{mat}: amplitude increases with normal load (Fig. 12c/g)",
                  "rank correlation > 0 over >= 3 stick-slip points",
                  f"{rank_corr(L, amp_l):.3g} ({n_l} stick-slip points)",
                  n_l >= 3 and rank_corr(L, amp_l) > 0))
        add(check(f"{mat}: period increases with normal load (Fig. 12d/h)",
                  "rank correlation > 0 over >= 3 stick-slip points", f"{rank_corr(L, per_l):.3g}",
                  n_l >= 3 and rank_corr(L, per_l) > 0))
        smooth_low = n_l >= 1 and not bool(ss_l[0] > 0.5)
        add(check(f"{mat}: smooth sliding below a minimum load", "lowest load slides smoothly, some "
                  "higher load stick-slips", f"stick-slip flags {ss_l.astype(int).tolist()}", smooth_low))
    return out


def plot(ds: xr.Dataset):
    fig, axes = plt.subplots(2, 2, figsize=(10, 7))
    for mat in ds.material.values:
        axes[0, 0].plot(ds.velocity, ds.amplitude_vs_velocity.sel(material=mat), "o-", label=mat)
        axes[0, 1].plot(ds.velocity, ds.period_vs_velocity.sel(material=mat), "o-", label=mat)
        axes[1, 0].plot(ds.normal_load, ds.amplitude_vs_load.sel(material=mat), "o-", label=mat)
        axes[1, 1].plot(ds.normal_load, ds.period_vs_load.sel(material=mat), "o-", label=mat)
    for ax, (xl, yl) in zip(axes.ravel(), [("velocity [m/s]", "amplitude [N]"), ("velocity [m/s]", "t_ss [s]"),
                                           ("F_z [N]", "amplitude [N]"), ("F_z [N]", "t_ss [s]")]):
        ax.set_xlabel(xl)
        ax.set_ylabel(yl)
        ax.legend()
    fig.suptitle("Fig. 12: MLBNM stick-slip amplitude and period (nan = smooth sliding)")
    fig.tight_layout()
    return fig


register_scenario(Scenario(
    name="beam-network/fig12",
    description=("Fig. 12: MLBNM amplitude and period vs velocity (88 N) and vs load (VF60 7.5e-4, VF40 "
                 "1.25e-4 m/s) for presets vf60-calibrated and vf40-calibrated."),
    config=CONFIG, run=run, checks=checks, plot=plot,
    quick={"protocol.duration_s": 12.0, "integrator.n_picard": 0},
    references=REFERENCES,
    derived={"protocol.v": "velocity_sweep.velocities or load_sweep.v_vf60 / v_vf40",
             "protocol.normal_force_value": "velocity_sweep.normal_load or load_sweep.loads",
             "model.normal_load": "velocity_sweep.normal_load or load_sweep.loads"},
))
