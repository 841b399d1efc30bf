"""What one reproduce run found: per-scenario outcomes, verdict counts, and the rows the report pages show.

Each claim has one of three verdicts (:class:`frictionlab.scenarios.base.Check`): pass, fail, or
deviation (the paper's own equations do not give its claim, shown with passing evidence computed
in the same run). :func:`exit_code` gives 0 when nothing fails, 1 when a claim fails, 2 when a
scenario could not run.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ..core.citations import citations
from ..scenarios.base import Check

__all__ = ["ScenarioOutcome", "Counts", "counts", "exit_code", "Row", "rows", "reading_text", "attention", "LABEL"]

#: how each verdict is printed (a failure in capitals, so it stands out in plain text)
LABEL = {"pass": "pass", "fail": "FAIL", "deviation": "deviation", "not testable": "not testable"}


@dataclass
class ScenarioOutcome:
    name: str
    description: str
    checks: list[Check] = field(default_factory=list)
    figure: Path | None = None
    data: Path | None = None
    seconds: float = 0.0
    error: str = ""
    references: list[str] = field(default_factory=list)
    #: the data files the run read, ``PATH (sha256 HEX); ...`` (:func:`frictionlab.core.datafiles.describe`)
    data_files: str = ""

    @property
    def paper(self) -> str:
        return self.name.split("/", 1)[0]

    @property
    def passed(self) -> bool:
        """True when it ran and no check is ``fail`` (proven deviations of the paper are not failures)."""
        return not self.error and all(c.ok for c in self.checks)

    @property
    def status(self) -> str:
        """``"fail"`` (a failed check or a crash), ``"deviation"`` (at least one proven deviation) or ``"pass"``."""
        if not self.passed:
            return "fail"
        return "deviation" if any(c.status == "deviation" for c in self.checks) else "pass"


def slug(name: str) -> str:
    """The file stem and page anchor of a scenario (``classic/fig2`` -> ``classic__fig2``)."""
    return name.replace("/", "__")


@dataclass(frozen=True)
class Counts:
    """Verdict counts over outcomes: checks that ``passed``, ``deviation``s, ``failed`` checks (a
    scenario that crashed counts one failed row), scenarios with ``errors``, and run ``seconds``."""

    passed: int
    deviation: int
    failed: int
    errors: int
    seconds: float
    not_testable: int = 0

    @property
    def checks(self) -> int:
        return self.passed + self.deviation + self.failed + self.not_testable

    @property
    def status(self) -> str:
        return "fail" if self.failed or self.errors else "deviation" if self.deviation else "pass"

    def line(self) -> str:
        return (f"{self.passed} pass, {self.deviation} deviation, {self.failed} fail"
                + (f", {self.not_testable} not testable" if self.not_testable else ""))


def counts(outcomes: list[ScenarioOutcome], kind: str | None = None) -> Counts:
    """Count the verdicts over ``outcomes`` (evidence checks are not counted as claims).

    ``kind=None`` counts every check (what the exit code and the run line use); ``kind="paper"``
    the paper's headline: the paper checks, less those that declare themselves insensitive;
    another kind (``"verification"``, ...) the checks of that kind. A scenario that crashed counts
    one failed row in every count."""
    st = [c.status for o in outcomes for c in o.checks
          if kind is None or (c.kind == kind and not (kind == "paper" and c.insensitive))]
    n_err = sum(bool(o.error) for o in outcomes)
    return Counts(st.count("pass"), st.count("deviation"), st.count("fail") + n_err, n_err,
                  sum(o.seconds for o in outcomes), st.count("not testable"))


def exit_code(outcomes: list[ScenarioOutcome]) -> int:
    """0 when no claim is ``fail``, 1 when one is, 2 when a scenario could not run (an error)."""
    c = counts(outcomes)
    return 2 if c.errors else 1 if c.failed else 0


def by_paper(outcomes: list[ScenarioOutcome]) -> dict[str, list[ScenarioOutcome]]:
    papers: dict[str, list[ScenarioOutcome]] = {}
    for o in outcomes:
        papers.setdefault(o.paper, []).append(o)
    return papers


def references(outcomes: list[ScenarioOutcome]) -> list[str]:
    """The scenarios' own references, then the citations registered by the models they used."""
    refs: list[str] = []
    for o in outcomes:
        for r in o.references:
            if r not in refs:
                refs.append(r)
    for c in citations():
        if c not in refs:
            refs.append(c)
    return refs


@dataclass(frozen=True)
class Row:
    """One line of a check table: a claim, or (``level`` 1) an evidence check of the deviation above it."""

    scenario: str
    claim: str
    expected: str
    measured: str
    status: str
    ambiguity: str
    level: int = 0
    explanation: str = ""
    kind: str = "paper"


def reading_text(r: Row) -> str:
    """The last column of a check row: the reading of the paper it rests on, and for a claim that is not
    testable also why (neither hides the other)."""
    if r.status != "not testable":
        return r.ambiguity
    return "; ".join(t for t in (f"not testable: {r.explanation}" if r.explanation else "", r.ambiguity) if t)


def rows(o: ScenarioOutcome, evidence: bool = True) -> list[Row]:
    """Check rows, each deviation followed by its evidence rows; a crash is a failed row."""
    out: list[Row] = []
    if o.error:
        out.append(Row(o.name, "runs without error", "no error", o.error.splitlines()[0], "fail", ""))
    for c in o.checks:
        out.append(Row(o.name, c.claim, c.expected, c.measured, c.status, c.ambiguity, 0, c.explanation, c.kind))
        if evidence and c.evidence:
            out += [Row(o.name, e.claim, e.expected, e.measured, e.status, e.ambiguity, 1, "", e.kind)
                    for e in c.evidence]
    return out


def attention(outcomes: list[ScenarioOutcome]) -> list[Row]:
    """The claims a reader must see first: every failed claim and crash, then every deviation, in run order."""
    claims = [r for o in outcomes for r in rows(o, evidence=False)]
    return [r for r in claims if r.status == "fail"] + [r for r in claims if r.status == "deviation"]


def deviations(outcomes: list[ScenarioOutcome]) -> list[tuple[ScenarioOutcome, Check]]:
    return [(o, c) for o in outcomes for c in o.checks if c.status == "deviation"]


def not_run_text(not_run: list[str], interrupted: bool) -> str:
    why = "the run was interrupted" if interrupted else "the run has not reached them (still running, or killed)"
    return (f"INCOMPLETE: {len(not_run)} scenario(s) did not run ({why}): {', '.join(not_run)}. "
            "Their claims are not checked; this report does not pass.")
