"""The optimised ensemble path (fused, caching kernel; kink-free history) equals the reference path.

Reference numbers ``ORIG_*`` were computed with the unoptimised implementation (before the
fused kernel existed) at rtol 1e-6, atol 1e-9; the fast path must reproduce them to solver
tolerance, and :func:`_ens_rates` must equal :func:`_ens_rates_reference` to rounding.
"""

from __future__ import annotations

import numpy as np
import pytest

from frictionlab.contact.microjunction import ForceHistory, Microjunction
from frictionlab.contact.microjunction.ensemble import (
    JunctionEnsemble, _ens_rates_reference, _scratch, ensemble_rates, integrate_ensemble,
)
from frictionlab.contact.microjunction.jackson_green import force_jg

M = Microjunction()
SLOW = M.replace(c1=1.42e-6)

# hold: 200 junctions, F* = 400 for 1e3 s, t = geomspace(1, 1e3, 7)
ORIG_HOLD_AREA = np.array([199.70272146429423, 200.01947351531308, 201.0184801883553, 204.20620329817928,
                           213.80939165164307, 241.75674417455542, 318.56012104311156])
ORIG_HOLD_SEP = np.array([18.656976661939638, 18.645791778104577, 18.61065492021209, 18.50214872692637,
                          18.179516034675352, 17.30661051431218, 15.271456102587896])
ORIG_HOLD_CONTACTS = np.array([21, 21, 22, 22, 23, 25, 31])
# cycle: 60 junctions, demo steel, loads 60 -> 600 -> hold -> 30 -> hold -> 300, t = linspace(0, 7, 15)
ORIG_CYCLE_AREA = np.array([31.00884396101835, 356.0480740645874, 901.0083000560658, 1448.0316278748105,
                            1954.7209640296066, 2431.3177470459614, 2884.3870843494533, 3170.3042591653284,
                            2778.169145501954, 3270.1777442750185, 3292.1194383090797, 3314.006640690502,
                            3335.8400217431717, 3428.144190898661, 3614.6012262758895])
ORIG_CYCLE_SEP = np.array([22.622961955970847, 3.6878315974744984, -7.430828531096114, -14.969050048617692,
                           -20.81667309715749, -25.81818448611182, -30.29757425628088, -33.03000172789277,
                           -33.76545526076931, -33.97316583068035, -34.17969075574517, -34.38546475755045,
                           -34.590498971026, -35.45480002335864, -37.17747594770962])
ORIG_CYCLE_CONTACTS = np.array([4, 24, 41, 50, 55, 57, 59, 59, 59, 59, 59, 59, 59, 59, 60])


def _hold(reference, rtol=1e-6, atol=1e-9):
    h = ForceHistory.piecewise_linear([0.0, 1e3], [400.0, 400.0])
    return integrate_ensemble(SLOW, JunctionEnsemble(n_junctions=200, sigma_z=20e-9), h,
                              t_eval=np.geomspace(1.0, 1e3, 7), rtol=rtol, atol=atol, reference=reference)


def _cycle(reference):
    h = ForceHistory.piecewise_linear([0, 1, 3, 4, 6, 7], [60, 600, 600, 30, 30, 300])
    return integrate_ensemble(M, JunctionEnsemble(n_junctions=60, sigma_z=20e-9), h,
                              t_eval=np.linspace(0.0, 7.0, 15), rtol=1e-6, atol=1e-9, reference=reference)


def test_reference_path_reproduces_stored_numbers():
    # the kept reference path is the pre-optimisation implementation, bit for bit up to libm
    e = _hold(True)
    np.testing.assert_allclose(e.total_area, ORIG_HOLD_AREA, rtol=1e-12)
    np.testing.assert_allclose(e.separation, ORIG_HOLD_SEP, rtol=1e-12)
    np.testing.assert_array_equal(e.n_contacts, ORIG_HOLD_CONTACTS)


def test_fast_path_hold_matches_stored_reference():
    e = _hold(False)
    # rtol 1e-6: totals agree to a few solver tolerances (measured: 6.4e-7 area, 3.0e-7 separation)
    np.testing.assert_allclose(e.total_area, ORIG_HOLD_AREA, rtol=5e-6)
    np.testing.assert_allclose(e.separation, ORIG_HOLD_SEP, rtol=5e-6)
    np.testing.assert_array_equal(e.n_contacts, ORIG_HOLD_CONTACTS)
    np.testing.assert_allclose(e.total_force, 400.0, rtol=1e-12)
    # per-junction forces: solve_ivp controls the RMS error over all 601 components, so single
    # junctions (those crossing the JG kink at delta* = 1.9) may differ by more than rtol
    r = _hold(True)
    assert np.sqrt(np.mean((e.final_force - r.final_force) ** 2)) < 1e-4 * np.sqrt(np.mean(r.final_force ** 2))
    np.testing.assert_allclose(e.final_area, r.final_area, rtol=1e-4, atol=1e-9)


def test_fast_path_cycle_matches_stored_reference():
    # loading, plastic sliding on the curve, elastic unloading, contacts lost and regained
    e = _cycle(False)
    np.testing.assert_allclose(e.total_area, ORIG_CYCLE_AREA, rtol=2e-5)  # measured 3.0e-6
    np.testing.assert_allclose(e.separation, ORIG_CYCLE_SEP, rtol=2e-5, atol=1e-5)  # measured 3.1e-5 abs at |d|~34
    np.testing.assert_array_equal(e.n_contacts, ORIG_CYCLE_CONTACTS)
    np.testing.assert_allclose(e.total_force, [60, 330, 600, 600, 600, 600, 600, 315, 30, 30, 30, 30, 30, 165, 300],
                               rtol=1e-12)


def test_fast_and_reference_paths_converge_to_the_same_solution():
    a = _hold(False, rtol=1e-9, atol=1e-12)
    b = _hold(True, rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(a.total_area, b.total_area, rtol=1e-8)
    np.testing.assert_allclose(a.separation, b.separation, rtol=1e-8)


def test_fast_path_needs_fewer_rhs_evaluations():
    # the untouched junctions' history no longer kinks at contact onset: far fewer step cuts
    assert _hold(False).n_steps < 0.7 * _hold(True).n_steps


def _states():
    """Junction states covering every branch: elastic, plastic, on-curve band, unloaded, out of contact."""
    ens = JunctionEnsemble(n_junctions=40, sigma_z=40e-9)
    c = M.constants
    z = ens.heights(c["delta_c"])
    n = z.size
    d = z[25]
    delta = np.clip(z - d, 0.0, None)
    fjg = np.where(delta > 0, force_jg(np.maximum(delta, 1e-300), c["b"], c["cnu"], c["ar_coef"]), 0.0)
    f = fjg.copy()
    f[0:25:4] *= 0.9  # below the plastic curve: elastic branch
    f[1:25:4] *= 1.05  # above it: plastic branch
    s = np.zeros(n)
    s[2:25:6] = -0.05 * delta[2:25:6]  # elastically unloaded area deficit
    m = delta.copy()
    m[3:25:5] += 0.3  # unloaded below its max interference: cached creep coefficients at m
    m[25:] = z[25:] - d  # untouched, negative history
    f[24] = 0.0
    s[24] = -1e-3  # dropped from contact
    return z, np.concatenate([[d], f, s, m]), float(f.sum())


@pytest.mark.parametrize("dftot", [0.0, 50.0, -50.0])
def test_fused_kernel_equals_reference_kernel(dftot):
    z, y, ftot = _states()
    p = M.param_vector()
    ref = np.empty_like(y)
    _ens_rates_reference(y, z, ftot, dftot, p, ref, np.empty(z.size, dtype=np.int64))
    fast = ensemble_rates(M, z, y, ftot, dftot)
    np.testing.assert_allclose(fast, ref, rtol=1e-13, atol=1e-300)
    assert np.any(ref[1:41] != 0.0) and ref[0] != 0.0


def test_coefficient_cache_reused_across_calls():
    from frictionlab.contact.microjunction.ensemble import _ens_rates

    z, y, ftot = _states()
    p = M.param_vector()
    work = _scratch(z.size)
    out1, out2, out3 = np.empty_like(y), np.empty_like(y), np.empty_like(y)
    _ens_rates(y, z, ftot, 0.0, p, out1, *work)
    cached = work[5].copy()
    assert np.sum(np.isfinite(cached)) >= 20  # coefficients stored for the contacting junctions
    _ens_rates(y, z, ftot, 0.0, p, out2, *work)  # cache hits: identical rates
    np.testing.assert_array_equal(out1, out2)
    # a new state recomputes where delta*_max moved, and gives the reference rates
    y2 = y.copy()
    y2[0] -= 0.01
    _ens_rates(y2, z, ftot, 0.0, p, out3, *work)
    ref = np.empty_like(y)
    _ens_rates_reference(y2, z, ftot, 0.0, p, ref, np.empty(z.size, dtype=np.int64))
    np.testing.assert_allclose(out3, ref, rtol=1e-13, atol=1e-300)


def test_t_eval_inside_segments_gives_the_same_trajectory():
    # output times that miss the segment ends: the end state comes from the same integration
    ens = JunctionEnsemble(n_junctions=30, sigma_z=20e-9)
    h = ForceHistory.piecewise_linear([0.0, 1.0, 3.0], [30.0, 300.0, 300.0])
    a = integrate_ensemble(M, ens, h, t_eval=[0.5, 2.5], rtol=1e-6, atol=1e-9)
    b = integrate_ensemble(M, ens, h, t_eval=[0.5, 1.0, 2.5, 3.0], rtol=1e-6, atol=1e-9)
    np.testing.assert_array_equal(a.time, [0.5, 2.5])
    np.testing.assert_allclose(a.total_area, b.total_area[[0, 2]], rtol=1e-12)
    np.testing.assert_allclose(a.separation, b.separation[[0, 2]], rtol=1e-12)
    assert a.n_steps == b.n_steps
