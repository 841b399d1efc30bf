"""Rough surfaces: generator statistics, measured maps, shifting (spec §2.3, S2)."""

import numpy as np
import pytest

from frictionlab.contact.rough.surface import (analytic_psd, load_height_map, make_surface, psd_2d, radial_acf,
                                               shift_x, surface_stats)
from frictionlab.core.errors import DataError, ParameterError


def test_gaussian_statistics_within_sampling_error():
    acf10, sk, ku = [], [], []
    for seed in range(5):
        h = make_surface(256, 256, seed=seed)
        st = surface_stats(h)
        assert st["rms"] == pytest.approx(1.0, rel=1e-12)
        assert abs(st["mean"]) < 1e-12
        lag, R = radial_acf(h)
        acf10.append(R[10])
        sk.append(st["skewness"])
        ku.append(st["kurtosis"])
    # spec S2 pass criteria (pooled)
    assert abs(np.mean(acf10) - np.exp(-1)) < 0.05
    assert abs(np.mean(sk)) < 0.1
    assert abs(np.mean(ku) - 3) < 0.3


def test_unnormalised_covariance_matches_target():
    # without normalisation the ensemble covariance equals R exactly: check R(10, 0) and R(0, 5)
    vals = np.array([[np.mean(h * np.roll(h, -10, 0)), np.mean(h * np.roll(h, -5, 1)), np.mean(h * h)]
                     for h in (make_surface(128, 128, beta_x=10, beta_y=5, seed=s, normalize=False) for s in range(20))])
    m = vals.mean(axis=0)
    assert m[2] == pytest.approx(1.0, abs=0.1)
    assert m[0] == pytest.approx(np.exp(-1), abs=0.06)
    assert m[1] == pytest.approx(np.exp(-1), abs=0.06)


def test_psd_matches_closed_form():
    h = make_surface(256, 256, seed=4, normalize=False)
    wx, wy, S = psd_2d(h)
    Sa = analytic_psd(wx, wy, beta_x=10.0)
    low = np.hypot(*np.meshgrid(wx, wy, indexing="ij")) * 10 < 2.0  # well-resolved band
    ratio = S[low].sum() / Sa[low].sum()
    assert ratio == pytest.approx(1.0, abs=0.15)


def test_exponential_acf_runs_and_is_rougher():
    he = make_surface(128, 128, acf="exponential", seed=1)
    hg = make_surface(128, 128, acf="gaussian", seed=1)
    slope = lambda h: np.sqrt(np.mean(np.diff(h, axis=0) ** 2))  # noqa: E731
    assert slope(he) > 2 * slope(hg)


@pytest.mark.parametrize("method", ["fourier", "cubic"])
def test_integer_shift_equals_roll(method):
    h = make_surface(64, 32, seed=2)
    assert np.max(np.abs(shift_x(h, 5.0, method=method) - np.roll(h, -5, axis=0))) < 1e-12


def test_fourier_and_cubic_agree_on_subgrid_shift():
    h = make_surface(128, 16, seed=3)
    a = shift_x(h, 2.5, method="fourier")
    b = shift_x(h, 2.5, method="cubic")
    assert np.max(np.abs(a - b)) < 2e-3
    # Fourier shifting is exactly composable
    assert np.allclose(shift_x(shift_x(h, 0.3), 0.7), np.roll(h, -1, axis=0), atol=1e-12)


def test_load_height_maps(tmp_path):
    h = make_surface(32, 32, seed=0) + 5.0
    np.save(tmp_path / "h.npy", h)
    np.savetxt(tmp_path / "h.csv", h, delimiter=",")
    np.savetxt(tmp_path / "h.txt", h)
    for name in ("h.npy", "h.csv", "h.txt"):
        hm = load_height_map(tmp_path / name, pixel_size=0.5)
        assert hm.dx == 0.5
        assert np.allclose(hm.heights, h - h.mean(), atol=1e-9)



def test_height_map_read_is_recorded_with_its_checksum(tmp_path):
    """A measured surface is a data file a run rests on: recorded (path, SHA-256) like the loaders' tables."""
    import hashlib

    from frictionlab.core.datafiles import files_read

    h = make_surface(32, 32, seed=1)
    np.save(tmp_path / "h.npy", h)
    np.savetxt(tmp_path / "h.csv", h, delimiter=",")
    with files_read() as reads:
        for name in ("h.npy", "h.csv"):
            load_height_map(tmp_path / name, pixel_size=1.0)
    assert [(r.path, r.sha256) for r in reads] == [
        (str((tmp_path / n).resolve()), hashlib.sha256((tmp_path / n).read_bytes()).hexdigest()) for n in ("h.npy", "h.csv")]

def test_bad_height_maps(tmp_path):
    h = make_surface(16, 16, seed=0)
    bad = h.copy()
    bad[3, 4] = np.nan
    np.save(tmp_path / "nan.npy", bad)
    with pytest.raises(DataError, match="non-finite.*row 3, column 4"):
        load_height_map(tmp_path / "nan.npy", 1.0)
    np.save(tmp_path / "rect.npy", h[:, :8])
    with pytest.raises(DataError, match="not square"):
        load_height_map(tmp_path / "rect.npy", 1.0)
    np.save(tmp_path / "flat.npy", np.ones((8, 8)))
    with pytest.raises(DataError, match="zero rms"):
        load_height_map(tmp_path / "flat.npy", 1.0)
    with pytest.raises(DataError, match="does not exist"):
        load_height_map(tmp_path / "missing.npy", 1.0)
    with pytest.raises(DataError, match="pixel_size"):
        load_height_map(tmp_path / "rect.npy", -1.0, require_square=False)


@pytest.mark.parametrize("kw, field", [({"sigma": 0.0}, "sigma"), ({"beta_x": 0.5}, "beta_x.*below the grid"),
                                       ({"beta_x": 100.0}, "beta_x.*exceeds"), ({"acf": "fractal"}, "acf"),
                                       ({"beta_y": -1.0}, "beta_y")])
def test_bad_generator_input(kw, field):
    with pytest.raises(ParameterError, match=field):
        make_surface(32, 32, **kw)
