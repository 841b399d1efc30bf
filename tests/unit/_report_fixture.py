"""Synthetic reproduce outcomes (no simulation) for the report tests.

Two failed claims (one a crash), one deviation with two evidence checks, three passes; one
measurement is a long token with no space (a list of 60 periods), which a table cell must wrap.
"""

from __future__ import annotations

from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np

from frictionlab.report.reproduce import ScenarioOutcome, write_report
from frictionlab.scenarios.base import Check, deviation


#: a measurement with no break opportunity (the table must still fit the page)
LONG_MEASURED = "increasing:" + ",".join(f"{0.5 + 0.01 * i:.4f}s" for i in range(60))


def make_report(out: Path, quick: bool = True) -> tuple[Path, Path, list[ScenarioOutcome]]:
    out.mkdir(parents=True, exist_ok=True)
    (out / "figures").mkdir(exist_ok=True)
    fig, ax = plt.subplots(figsize=(5, 3))
    t = np.linspace(0, 10, 200)
    ax.plot(t, 0.6 + 0.02 * np.exp(-t) * np.cos(3 * t), color="tab:blue", lw=2)
    ax.set_xlabel("time [s]")
    fig_path = out / "figures" / "alpha__step.png"
    fig.savefig(fig_path, dpi=80)
    plt.close(fig)
    outcomes = [
        ScenarioOutcome("alpha/step", "Alpha paper, velocity step <fig. 2> & friends.",
                        [Check("steady friction = mu0 + (a-b) ln(v/v0)", "0.588487 (rel 1e-4)", "0.588490", True),
                         Check("direct effect a ln(v2/v1)", "0.02303 (rel 2 %)", "0.02296", True,
                               ambiguity="spec says 'instantaneous'; taken as the first saved sample")],
                        figure=fig_path, seconds=1.25, references=["Alpha et al. 2001, Fig. 2"]),
        ScenarioOutcome("alpha/hold", "Alpha paper, slide-hold-slide.",
                        [Check("healing slope b ln 10 per decade", "0.0345 (rel 5 %)", "0.0400", False,
                               ambiguity="seed eq. 7 vs spec table 2: the seed wins")], seconds=2.5,
                        references=["Alpha et al. 2001, Fig. 5"]),
        ScenarioOutcome("beta/map", "Beta paper, stick-slip map.", [], seconds=0.5,
                        error="IntegrationError: NaN at step 12 (t = 0.0012 s); use a smaller dt\ntraceback line",
                        references=["Beta & Gamma 2010"]),
        ScenarioOutcome("gamma/onset", "Gamma paper, stick-slip onset.",
                        [deviation("stick-slip at the printed parameters", "stick-slip", "steady sliding",
                                   [Check("growth rate of the linearised system < 0", "< 0", "-3.2 1/s", True),
                                    Check("run from rest settles on F_z g(V)", "rel 1e-3", "2e-5", True)],
                                   "the paper claims stick-slip; its equations are linearly stable there"),
                         Check("period grows with load", "increasing", LONG_MEASURED, True)],
                        seconds=0.75, references=["Gamma 2020, Table 3"]),
    ]
    md, html_ = write_report(outcomes, out, quick=quick)
    return md, html_, outcomes
