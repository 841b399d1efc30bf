r"""Mean-field (no-interaction) rough contact of Hulikal, Lapusta & Bhattacharya: exact results.

Without interaction every element obeys its own viscoelastic law (paper eq. 5) with compliance
:math:`\bar C^0`, and the elements are coupled only by the load :math:`W = \sum_i p_i`, through the
common dilatation ``d``. Two consequences are computed here from those equations alone.

**Static, fully relaxed or instantaneous** (eq. 5 at constant compliance). With a constant compliance :math:`cC^0`
(``c = 1`` at :math:`t = 0^+`; ``c = 1 + \sum_k \bar A_k/\bar\lambda_k`` once the material has
relaxed, e.g. at :math:`t = 100 \gg 1/\bar\lambda`) an element carries
:math:`p_i = \max(0, h_i - d)/(cC^0)`. For Gaussian heights of rms :math:`\sigma` and
:math:`N \to \infty`, with :math:`\eta = d/\sigma` and :math:`\psi(\eta) = \varphi(\eta) -
\eta\bar\Phi(\eta)`,

.. math:: \frac{\bar A}{N\bar\Delta^2} = \bar\Phi(\eta),\qquad
          \bar p\,\bar\Delta^2 = \frac{\sigma\,\psi(\eta)}{cC^0},\qquad
          \mu_s = \frac{\bar\tau_S\,\bar\Phi(\eta)}{\bar p}.

Since :math:`\psi'(\eta) = -\bar\Phi(\eta)`, the pressure elasticity of the friction coefficient is
exact:

.. math:: \frac{d\ln\mu_s}{d\ln\bar p} = \frac{\varphi(\eta)\,\psi(\eta)}{\bar\Phi(\eta)^2} - 1 < 0,

so :math:`\mu_s` falls with pressure (Mills-ratio inequality), about 7.6 % per doubling at
100 MPa for the relaxed Table 1 material; only the marginal height distribution enters (not
the correlation length), and :math:`\mu_s` does not depend on the system size.

**Steady sliding, large-system limit.** For :math:`N \to \infty` the dilatation is constant in
steady sliding, so each element runs the paper's step recursion alone along its path: at slip
steps ``s`` (:math:`\Delta t = s/\bar v`), with the exponential coefficients of
:class:`~frictionlab.contact.rough.constitutive.Viscoelastic` (:math:`E_k, w_{0,k}, b_k`, ``c``),

.. math:: H = \sum_k E_k q_k + \bar A_k w_{0,k} p^n,\quad
          p^{n+1} = \max\!\big(0,\ h(x^{n+1}) - C^0 H - d\big)/(cC^0),\quad
          q_k \leftarrow E_k q_k + \bar A_k (w_{0,k} p^n + b_k p^{n+1}),

and ``d`` is fixed by :math:`\langle p\rangle = \bar p\bar\Delta^2` (ensemble and slip average).
The heights along a path are a stationary Gaussian process with the surface's autocorrelation
along ``x`` (Gaussian: :math:`\sigma^2 e^{-(x/\beta)^2}`), sampled exactly at the step
positions -- independent of the 2-D surface generator and of the cubic interpolation of the
sliding driver. The steady friction coefficient is
:math:`\mu_{ss} = (\bar\tau_S + \alpha\ln\bar v)\bar\Phi_c/\bar p` with :math:`\bar\Phi_c` the
steady fraction of elements in contact (paper eqs. 13-15, natural log). Limits: at
:math:`\bar v \to 0` the relaxed static value; at :math:`\bar v \to \infty` the instantaneous
(``c = 1``) area times :math:`\bar\tau_S + \alpha\ln\bar v`.

References
----------
S. Hulikal, N. Lapusta, K. Bhattacharya, JMPS 76 (2015) 44-63, eqs. (5), (13)-(17);
J. A. Greenwood, J. B. P. Williamson, Proc. R. Soc. A 295 (1966) 300.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numba import njit
from scipy import optimize

from ..contact.rough.constitutive import Viscoelastic, relaxed_compliance
from ..core.errors import ParameterError
from .boussinesq import meanfield_eta, meanfield_mu

__all__ = ["relaxed_compliance", "meanfield_mu_static", "meanfield_pressure_elasticity",
           "meanfield_mu_ratio", "SteadySliding", "meanfield_steady_sliding", "paired_difference",
           "gaussian_paths"]


def meanfield_mu_static(pressure_bar: float, tau_s: float, *, c: float = 1.0, C0: float = 16.0,
                        dx: float = 1.0, sigma: float = 1.0) -> float:
    """Static mean-field friction coefficient with compliance ``c C0`` (module notes)."""
    return meanfield_mu(pressure_bar, tau_s, dx=dx, C0=C0, c=c, sigma=sigma)


def meanfield_pressure_elasticity(pressure_bar: float, *, c: float = 1.0, C0: float = 16.0, dx: float = 1.0,
                                  sigma: float = 1.0) -> float:
    r""":math:`d\ln\mu_s/d\ln\bar p = \varphi(\eta)\psi(\eta)/\bar\Phi(\eta)^2 - 1` (exact, see module)."""
    from scipy import stats  # here, not at import: scipy.stats alone costs ~0.3 s (frictionlab list)

    eta = meanfield_eta(pressure_bar, dx=dx, sigma=sigma, C0=C0, c=c)
    sf = stats.norm.sf(eta)
    psi = stats.norm.pdf(eta) - eta * sf
    return float(stats.norm.pdf(eta) * psi / sf**2 - 1.0)


def meanfield_mu_ratio(p1_bar: float, p2_bar: float, **kw) -> float:
    r""":math:`\mu_s(\bar p_2)/\mu_s(\bar p_1)` of the static mean field."""
    return meanfield_mu_static(p2_bar, 1.0, **kw) / meanfield_mu_static(p1_bar, 1.0, **kw)


def gaussian_paths(n_paths: int, n_samples: int, spacing: float, *, sigma: float = 1.0, beta: float = 10.0,
                   acf: str = "gaussian", seed: int = 0) -> np.ndarray:
    r"""``n_paths`` independent stationary Gaussian processes sampled every ``spacing`` [L*].

    Autocorrelation :math:`\sigma^2 e^{-(x/\beta)^2}` (``"gaussian"``) or :math:`\sigma^2 e^{-|x|/\beta}`
    (``"exponential"``): the surface's correlation along one line. Periodic circulant embedding on
    ``n_samples`` points (must exceed ``8 beta/spacing``); not normalised per path.
    """
    if n_samples * spacing < 8 * beta:
        raise ParameterError(f"paths of {n_samples * spacing:g} L* are too short for beta = {beta:g} (need >= 8 beta)")
    x = spacing * np.fft.fftfreq(n_samples, 1.0 / n_samples)
    if acf == "gaussian":
        R = sigma**2 * np.exp(-(x / beta) ** 2)
    elif acf == "exponential":
        R = sigma**2 * np.exp(-np.abs(x) / beta)
    else:
        raise ParameterError(f"acf = {acf!r} is not one of ['gaussian', 'exponential']")
    lam = np.clip(np.fft.rfft(R).real, 0.0, None)
    rng = np.random.default_rng(seed)
    z = rng.standard_normal((n_paths, n_samples))
    return np.fft.irfft(np.sqrt(lam) * np.fft.rfft(z, axis=1), n=n_samples, axis=1)


@njit(cache=True)
def _steady_paths(h, d, C0, c, E, Aw0, Ab, q0, n_skip):  # pragma: no cover - compiled
    """Run every periodic path at fixed ``d`` for ``n_skip`` steps plus one period; per path, the
    sums of p and the number of steps in contact over the last period."""
    n_paths, n_win = h.shape
    K = E.size
    q = np.empty(K)
    sp = np.zeros(n_paths)
    nc = np.zeros(n_paths)
    for i in range(n_paths):
        qs = 0.0
        for k in range(K):
            q[k] = q0[k]
            qs += q[k]
        p = max(0.0, h[i, 0] - C0 * qs - d) / (c * C0)
        for j in range(1, n_skip + n_win + 1):
            H = 0.0
            for k in range(K):
                H += E[k] * q[k] + Aw0[k] * p
            pn = max(0.0, h[i, j % n_win] - C0 * H - d) / (c * C0)
            for k in range(K):
                q[k] = E[k] * q[k] + Aw0[k] * p + Ab[k] * pn
            p = pn
            if j > n_skip:
                sp[i] += p
                if p > 0.0:
                    nc[i] += 1.0
    return sp, nc


@dataclass(frozen=True)
class SteadySliding:
    """Large-system mean-field steady state at one velocity.

    ``per_path_friction`` holds each path's contribution (its mean is ``friction_coefficient``);
    paths are independent, so their spread gives the standard error, and with common paths
    (same ``seed``/``window``) :func:`paired_difference` gives the error of a difference.
    """

    velocity: float
    area_fraction: float
    friction_coefficient: float
    friction_se: float
    dilatation: float
    samples: int
    per_path_friction: np.ndarray


def paired_difference(a: SteadySliding, b: SteadySliding) -> tuple[float, float]:
    """``b.mu - a.mu`` and its standard error over common paths."""
    if a.per_path_friction.shape != b.per_path_friction.shape:
        raise ParameterError("paired difference needs the same paths (n_paths, window, seed) in both runs")
    dd = b.per_path_friction - a.per_path_friction
    return float(dd.mean()), float(dd.std(ddof=1) / math.sqrt(dd.size))


def meanfield_steady_sliding(velocity: float, *, lams, As, pressure_bar: float, tau_s: float, alpha: float,
                             C0: float = 16.0, sigma: float = 1.0, beta: float = 10.0, acf: str = "gaussian",
                             slip_step: float = 0.25, n_paths: int = 1024, window: float = 400.0,
                             seed: int = 0, scheme: str = "linear", relax: float = 5.0) -> SteadySliding:
    r"""Steady mean-field sliding friction in the large-system limit (module docstring).

    Parameters
    ----------
    velocity : float
        :math:`\bar v` [L*/T*] (> 0).
    lams, As : viscoelastic rates and amplitudes (paper eq. 5).
    pressure_bar : float
        Nominal pressure [F*/L*^2] (element area 1).
    slip_step : float
        Slip per step ``s`` (:math:`\Delta t = s/\bar v`), as in the sliding driver.
    n_paths, window : int, float
        Independent element paths, each a periodic process of period ``window`` [L*] (>= 8 beta)
        averaged over one period after ``relax/lambda_min`` of sliding around it (plus 5 beta),
        which relaxes the uniform start :math:`q_k = (\bar A_k/\bar\lambda_k)\bar p` (exact at
        :math:`\bar v\to\infty`) by :math:`e^{-relax}`.
    seed : int
        Same seed and window -> same paths at every velocity and material (common random
        numbers: differences between velocities are much more precise than each value).
    """
    if not (velocity > 0 and math.isfinite(velocity)):
        raise ParameterError(f"velocity = {velocity!r} must be positive")
    ve = Viscoelastic(tuple(lams), tuple(As), scheme)
    if not ve.n_rates:
        raise ParameterError("steady sliding needs a viscoelastic material (lams, As non-empty)")
    co = ve.step_coeffs(slip_step / velocity)
    A = np.asarray(ve.As)
    E, Aw0, Ab = np.asarray(co.E, float), A * co.w0, A * co.b
    S = ve.relaxed_factor - 1.0
    q0 = A / np.asarray(ve.lams) * pressure_bar
    n_skip = int(math.ceil((relax * velocity / min(ve.lams) + 5 * beta) / slip_step))
    n_win = int(math.ceil(window / slip_step))
    h = gaussian_paths(n_paths, n_win, slip_step, sigma=sigma, beta=beta, acf=acf, seed=seed)

    def excess(d: float) -> float:
        sp, _ = _steady_paths(h, d, C0, co.c, E, Aw0, Ab, q0, n_skip)
        return sp.sum() / (n_paths * n_win) - pressure_bar

    # bracket: the relaxed static root and the instantaneous root shifted by the mean history
    d_rel = sigma * meanfield_eta(pressure_bar, sigma=sigma, C0=C0, c=1.0 + S)
    d_inst = sigma * meanfield_eta(pressure_bar, sigma=sigma, C0=C0, c=1.0) - C0 * S * pressure_bar
    lo, hi = min(d_rel, d_inst) - 0.3 * sigma, max(d_rel, d_inst) + 0.3 * sigma
    for _ in range(20):
        if excess(lo) > 0:
            break
        lo -= 0.5 * sigma
    for _ in range(20):
        if excess(hi) < 0:
            break
        hi += 0.5 * sigma
    d = optimize.brentq(excess, lo, hi, xtol=1e-6 * sigma)
    _, nc = _steady_paths(h, d, C0, co.c, E, Aw0, Ab, q0, n_skip)
    per_path = (tau_s + alpha * math.log(velocity)) * (nc / n_win) / pressure_bar
    return SteadySliding(float(velocity), float(nc.sum() / (n_paths * n_win)), float(per_path.mean()),
                         float(per_path.std(ddof=1) / math.sqrt(n_paths)), float(d), int(n_paths * n_win), per_path)
