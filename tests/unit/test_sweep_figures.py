"""The figure files of a sweep store (``frictionlab.sweep.figures``): a file the store did not draw is
replaced only with ``overwrite``; the store's own figures are recorded and may be drawn again."""

from __future__ import annotations

import json

import pytest

from frictionlab.core.errors import ConfigError
from frictionlab.sweep.figures import FIGURES, check_figure, check_figure_path, record_figure, save_figure


def test_a_file_the_store_did_not_draw_is_kept_unless_overwrite(tmp_path):
    store, other = tmp_path / "store", tmp_path / "elsewhere" / "fig.png"
    store.mkdir()
    other.parent.mkdir()
    check_figure(other, store, overwrite=False)  # no file yet: nothing to refuse
    other.write_bytes(b"someone's figure")
    with pytest.raises(ConfigError, match="was not drawn from the sweep"):
        check_figure(other, store, overwrite=False)
    check_figure(other, store, overwrite=True)
    record_figure(other, store)  # drawn from the store now: drawing it again is allowed
    check_figure(other, store, overwrite=False)
    assert json.loads((store / FIGURES).read_text()) == [str(other.resolve())]
    record_figure(other, store)  # recorded once
    assert json.loads((store / FIGURES).read_text()) == [str(other.resolve())]


def test_a_file_inside_the_store_and_a_damaged_record(tmp_path):
    store = tmp_path / "store"
    store.mkdir()
    (store / "sweep.png").write_bytes(b"old")
    check_figure(store / "sweep.png", store, overwrite=False)  # the store's own folder: replaced
    (store / FIGURES).write_text("{not json")
    outside = tmp_path / "fig.svg"
    outside.write_text("<svg/>")
    with pytest.raises(ConfigError):
        check_figure(outside, store, overwrite=False)  # an unreadable record names no figure


@pytest.mark.parametrize("name, ok", [("a.png", True), ("a.PDF", True), ("a.svg", True), ("a.xyz", False),
                                      ("a", False)])
def test_figure_types(tmp_path, name, ok):
    if ok:
        check_figure_path(tmp_path / name, "--plot")
    else:
        with pytest.raises(ConfigError, match=r"--plot .*\.png, \.pdf or \.svg"):
            check_figure_path(tmp_path / name, "--plot")


def test_save_figure_makes_the_folder_and_writes_the_type_of_the_suffix(tmp_path):
    from matplotlib.figure import Figure

    fig = Figure()
    fig.add_subplot().plot([0, 1], [1, 0])
    png = save_figure(fig, tmp_path / "new" / "f.png")
    svg = save_figure(fig, tmp_path / "new" / "f.svg")
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert svg.read_text().lstrip().startswith("<?xml") and "<svg" in svg.read_text()
    assert sorted(p.name for p in (tmp_path / "new").iterdir()) == ["f.png", "f.svg"]  # no temporary left
