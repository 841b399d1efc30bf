r"""What a sliding run of the rough-contact model records (paper §5): the series at every recorded
step, the velocity jumps (direct effect, §5.5), probe elements (Fig. 9), force-map snapshots
(Figs. 10, 16) and the pooled force PDF (Fig. 11), and the dataset built from them
(:func:`~frictionlab.contact.rough.sliding.run_sliding` layout, the paper's units: L* = 1 µm,
T* = 1 s, F*, eq. 6)."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import numpy as np

from ...core.errors import ParameterError
from .model import UNITS, KernelParameters, RoughContactSim, force_pdf

if TYPE_CHECKING:
    import xarray as xr

__all__ = ["SlidingRecord", "direct_effect", "friction_coefficient"]


def direct_effect(alpha: float, v_old: float, v_new: float, area: float, W: float) -> float:
    r"""Paper §5.5: :math:`\Delta\mu = \alpha\ln(\bar v_{new}/\bar v_{old})\,\bar A(\bar v_{old})/W`
    (natural log; magnitudes of the velocities)."""
    return alpha * math.log(abs(v_new) / abs(v_old)) * area / W


def friction_coefficient(model: KernelParameters, area: float, v: float, W: float) -> float:
    r""":math:`\mu = (\bar\tau_S + \alpha\ln|\bar v|)\bar A/W`, :math:`\bar\tau_S\bar A/W` at rest (eqs. 13-15)."""
    tau = model.tau_s if v == 0 else model.tau_s + model.alpha * math.log(abs(v))
    return tau * area / W


_SERIES = ("time", "slip", "slip_velocity", "friction_coefficient", "shear_force", "normal_force", "n_substeps",
           "solver_iterations", "solver_products")
_JUMPS = ("jump_time", "jump_slip", "v_old", "v_new", "mu_before", "mu_after", "area_at_jump", "direct_effect_expected")


class SlidingRecord:
    """The records of one sliding run, filled step by step by
    :class:`~frictionlab.contact.rough.sliding.SlidingRun`.

    ``probes``: elements ``(i, j)`` whose force, length change and gap are recorded at every
    recorded step; ``snapshot_times`` [T*, from the start of the run]: force maps at the first step at or
    after each; ``pdf_bins``/``pdf_after_slip`` [L*]: the force PDF pooled over the steps with at
    least that slip; ``W_max``: the largest load of the run (the PDF's last bin reaches it).
    """

    def __init__(self, sim: RoughContactSim, *, probes: tuple = (), snapshot_times: tuple = (),
                 pdf_bins: np.ndarray | None = None, pdf_after_slip: float | None = None, W_max: float = 1.0):
        nx, ny = sim.nx, sim.ny
        self.probes = tuple((int(i), int(j)) for i, j in probes)
        for i, j in self.probes:
            if not (0 <= i < nx and 0 <= j < ny):
                raise ParameterError(f"probe element ({i}, {j}) is outside the {nx} x {ny} patch")
        self.pdf_after_slip = pdf_after_slip
        if pdf_after_slip is not None:
            bins = np.concatenate([[0.0], np.geomspace(1e-6, 1.0, 41)]) if pdf_bins is None else np.asarray(pdf_bins, float)
            bins[-1] = max(bins[-1], float(W_max))
            self.bins = bins
            self.pdf_acc = np.zeros(bins.size - 1)
            self.pdf_n = 0
        self.snaps = sorted(float(s) for s in snapshot_times)
        self.snap: dict[str, list] = {"t": [], "slip": [], "p": [], "up": [], "surf": []}
        self.rec: dict[str, list] = {k: [] for k in _SERIES}
        self.obs: list[dict[str, float]] = []
        self.probe_rows: dict[str, list[np.ndarray]] = {"force": [], "length_change": [], "gap": []}
        self.jumps: dict[str, list] = {k: [] for k in _JUMPS}
        self.its = [0, 0]  # PK iterations and operator products since the last record

    def count(self, iterations: int, products: int) -> None:
        """Add one solve's iterations and operator products to the next record."""
        self.its[0] += iterations
        self.its[1] += products

    def record(self, sim: RoughContactSim, v: float, nsub: int) -> None:
        """The series at the current state, sliding at ``v`` [L*/T*] with ``nsub`` substeps."""
        o = sim.observe()
        mu = friction_coefficient(sim.model, o["contact_area"], v, sim.W)
        for key, value in zip(_SERIES, (sim.t, sim.xbar, v, mu, mu * sim.W, -sim.W, nsub, *self.its)):
            self.rec[key].append(value)
        self.its = [0, 0]
        self.obs.append(o)
        if self.probes:
            be = sim.be
            pn = be.to_numpy(sim.p)
            u = sim.length_change()
            hcur = be.to_numpy(sim.heights)
            z0 = be.to_numpy(sim.z0)
            self.probe_rows["force"].append(np.array([-pn[i, j] for i, j in self.probes]))
            self.probe_rows["length_change"].append(np.array([u[i, j] for i, j in self.probes]))
            self.probe_rows["gap"].append(np.array([sim.d - float(z0[i, j]) - u[i, j] - hcur[i, j]
                                                    for i, j in self.probes]))

    def jump(self, sim: RoughContactSim, v_old: float, v_new: float) -> None:
        """A velocity jump at the current state: the direct effect without a solve (Sect. 5.5)."""
        m = sim.model
        area = float(sim.be.scalar(sim.be.xp.sum(sim.p > 0))) * m.dx**2
        values = (sim.t, sim.xbar, v_old, v_new, friction_coefficient(m, area, v_old, sim.W),
                  friction_coefficient(m, area, v_new, sim.W), area,
                  direct_effect(m.alpha, v_old, v_new, area, sim.W) if v_old != 0 and v_new != 0 else math.nan)
        for key, value in zip(_JUMPS, values):
            self.jumps[key].append(value)

    def pool_pdf(self, sim: RoughContactSim, slip: float) -> None:
        """Add the current forces to the pooled PDF once the run has slipped ``pdf_after_slip``."""
        if self.pdf_after_slip is not None and slip >= self.pdf_after_slip:
            self.pdf_acc += force_pdf(sim.be.to_numpy(sim.p), self.bins)
            self.pdf_n += 1

    def snapshots(self, sim: RoughContactSim, elapsed: float, surface: Any) -> None:
        """Force maps (and plastic shortening, deformed surface) due at ``elapsed`` [T*]."""
        be = sim.be
        while self.snaps and self.snaps[0] <= elapsed * (1 + 1e-12) + 1e-12:
            self.snaps.pop(0)
            pn = be.to_numpy(sim.p)
            self.snap["t"].append(sim.t)
            self.snap["slip"].append(sim.xbar)
            self.snap["p"].append(pn.astype(np.float32))
            up = be.to_numpy(sim.u_p)
            self.snap["up"].append(up.astype(np.float32))
            self.snap["surf"].append((up + surface(sim.xbar)).astype(np.float32))

    def dataset(self, sim: RoughContactSim, attrs: dict[str, Any]) -> xr.Dataset:
        """The records as a dataset in the paper's units (``attrs`` added)."""
        import xarray as xr

        rec = self.rec
        ds_out = xr.Dataset(coords={"time": ("time", np.asarray(rec["time"]), {"units": "s"})})
        units = {"slip": "um", "slip_velocity": "um/s", "friction_coefficient": "1", "shear_force": "F* (0.2513 N)",
                 "normal_force": "F* (0.2513 N)", "n_substeps": "1", "solver_iterations": "1", "solver_products": "1"}
        for key, u in units.items():
            ds_out[key] = ("time", np.asarray(rec[key], dtype=float), {"units": u})
        skip = {"friction_coefficient", "normal_force"}
        for key in self.obs[0]:
            if key in skip:
                continue
            ds_out[key] = ("time", np.array([o[key] for o in self.obs]), {"units": UNITS.get(key, "1")})
        ds_out["friction_coefficient"].attrs["description"] = "(tau_s + alpha ln|v|) A / W (paper eqs. 13-15, natural log)"
        nj = len(self.jumps["jump_time"])
        ds_out = ds_out.assign_coords(jump=("jump", np.arange(nj)))
        for key, vals in self.jumps.items():
            u = {"jump_time": "s", "jump_slip": "um", "v_old": "um/s", "v_new": "um/s", "area_at_jump": "um^2"}.get(key, "1")
            ds_out[key] = ("jump", np.asarray(vals, dtype=float), {"units": u})
        probes = self.probes
        if probes:
            ds_out = ds_out.assign_coords(probe_i=("probe", [p[0] for p in probes]),
                                          probe_j=("probe", [p[1] for p in probes]))
            ds_out["probe_force"] = (("time", "probe"), np.asarray(self.probe_rows["force"]),
                                     {"units": "F* (paper sign, <= 0)"})
            ds_out["probe_length_change"] = (("time", "probe"), np.asarray(self.probe_rows["length_change"]),
                                             {"units": "um"})
            ds_out["probe_gap"] = (("time", "probe"), np.asarray(self.probe_rows["gap"]), {"units": "um"})
        snap = self.snap
        if snap["t"]:
            ds_out = ds_out.assign_coords(snapshot_time=("snapshot", np.asarray(snap["t"]), {"units": "s"}),
                                          snapshot_slip=("snapshot", np.asarray(snap["slip"]), {"units": "um"}))
            ds_out["contact_force"] = (("snapshot", "x", "y"), np.stack(snap["p"]), {"units": "F* (0.2513 N)"})
            if sim.vp is not None:
                ds_out["plastic_shortening_map"] = (("snapshot", "x", "y"), np.stack(snap["up"]), {"units": "um"})
                ds_out["deformed_surface"] = (("snapshot", "x", "y"), np.stack(snap["surf"]),
                                              {"units": "um", "description": "u_p + h(x0 + xbar, y0) (paper Fig. 16)"})
        if self.pdf_after_slip is not None:
            bins = self.bins
            centres = np.sqrt(bins[:-1] * bins[1:])
            centres[bins[:-1] == 0] = 0.5 * bins[1:][bins[:-1] == 0]
            ds_out = ds_out.assign_coords(force_bin=("force_bin", centres, {"units": "F* (0.2513 N)"}))
            ds_out["force_pdf"] = ("force_bin", self.pdf_acc / max(self.pdf_n, 1), {"units": "1/F*"})
            ds_out["force_bin_width"] = ("force_bin", np.diff(bins), {"units": "F* (0.2513 N)"})
            ds_out.attrs["pdf_samples"] = self.pdf_n
        if sim.vp is not None:
            ds_out["plastic_shortening"] = (("x", "y"), sim.be.to_numpy(sim.u_p), {"units": "um"})
        ds_out.attrs.update(attrs)
        ds_out.attrs["total_solver_iterations"] = float(np.sum(ds_out.iterations.values))
        return ds_out
