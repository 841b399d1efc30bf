"""``plot.finish`` (what ``Scenario.figure`` applies to every scenario figure) and ``plot.facets``."""

import numpy as np
import xarray as xr

from frictionlab.plot import facets, finish, plt
from frictionlab.scenarios import Scenario, get_scenario


def _legend(ax):
    lg = ax.get_legend()
    return None if lg is None else [t.get_text() for t in lg.get_texts()]


def test_finish_gives_each_labelled_panel_one_legend_and_keeps_the_plots_own():
    fig, ax = plt.subplots(2, 2)
    x = np.linspace(0.0, 1.0, 5)
    ax[0, 0].plot(x, x, label="a")
    ax[0, 0].plot(x, 2 * x, label="b")
    ax[0, 1].plot(x, x)  # nothing labelled: no legend
    ax[1, 0].plot(x, x, label="own")
    ax[1, 0].legend(loc="upper left", title="kept")
    ax[1, 1].plot(x, x, label="own")  # the same lines as ax[1, 0], whose legend shows them: none here
    assert finish(fig) is fig
    assert _legend(ax[0, 0]) == ["a", "b"] and ax[0, 0].get_legend().get_texts()[0].get_fontsize() == 8
    assert _legend(ax[0, 1]) is None
    assert _legend(ax[1, 0]) == ["own"] and ax[1, 0].get_legend().get_title().get_text() == "kept"
    assert _legend(ax[1, 1]) is None
    assert fig.subplotpars.left != 0.125  # the tight layout moved the default margins


def test_facets_one_panel_per_column_value_one_line_per_hue_value():
    t = np.array([1.0, 10.0, 100.0])
    ds = xr.Dataset({"mu": (("interaction", "A_cr", "time"), np.arange(12.0).reshape(2, 2, 3) + 1)},
                    coords={"interaction": ["boussinesq", "meanfield"], "A_cr": [1e-5, 1e-3], "time": t})
    fig = facets(ds, "time", "mu", col="interaction", hue="A_cr", label=lambda a: f"A_cr={a:g}", xlabel="t",
                 ylabel="mu", logx=True, width=4)
    assert [a.get_title() for a in fig.axes] == ["boussinesq", "meanfield"]
    assert list(fig.get_size_inches()) == [8.0, 4.0]
    a = fig.axes[1]
    assert (a.get_xlabel(), a.get_ylabel(), a.get_xscale(), a.get_yscale()) == ("t", "mu", "log", "linear")
    assert [ln.get_label() for ln in a.lines] == ["A_cr=1e-05", "A_cr=0.001"]
    np.testing.assert_array_equal(a.lines[1].get_ydata(), ds.mu.sel(interaction="meanfield", A_cr=1e-3).values)


def test_scenario_figure_is_the_finished_plot_or_none():
    sc = get_scenario("kloss/fig10")
    ds, _ = sc.execute(quick=True, overrides={"analysis.curve.n": 21})
    fig = sc.figure(ds)
    (ax,) = fig.axes
    assert _legend(ax) == ["Kloss slip form"] and ax.get_xlabel() == "longitudinal slip s_x [%]"
    assert Scenario(name="x/y", description="d", config={}).figure(ds) is None
