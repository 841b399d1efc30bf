"""Mutation runs: every paper check must be able to fail (``frictionlab reproduce --mutations``).

A paper check declares :class:`~frictionlab.scenarios.base.Mutation` s -- a parameter change or an
alternative equation that a wrong implementation or a wrong reading of the paper would amount to.
:func:`run_mutations` reruns the scenario once per distinct mutation (configuration overrides, as
``--set``) and evaluates its checks again: a check whose verdict changes is *killed* (it can tell
the wrong model from the right one); one whose verdict stays is a *survivor*, a defect of the
check unless the check states that the claim is insensitive (``Check.insensitive``, which also
takes it out of the headline). A paper check with neither a mutation nor a statement is listed as
*undeclared*. Checks are matched by their claim text, so a claim text must not carry a value that
the mutation moves.

Mutated runs write nothing (no data file, no partial results, no figure): they exist only to be
judged.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..core.errors import FrictionLabError
from ..scenarios.base import Check, Mutation, Scenario

__all__ = ["MutationOutcome", "MutationReport", "run_mutations", "mutation_markdown"]


@dataclass(frozen=True)
class MutationOutcome:
    """One mutation of one check: the verdict before and after (``None``: the mutated run did not
    produce the check), or the error that stopped the mutated run."""

    scenario: str
    claim: str
    mutation: Mutation
    before: str
    after: str | None
    error: str = ""

    @property
    def killed(self) -> bool:
        return not self.error and self.after is not None and self.after != self.before

    def line(self) -> str:
        what = ("killed" if self.killed else "ERROR" if self.error else "survived")
        after = self.error or (self.after if self.after is not None else "check not produced")
        return f"{what}: {self.scenario}: {self.claim} -- {self.mutation.what} ({self.before} -> {after})"


@dataclass
class MutationReport:
    """The mutation outcomes of some scenarios, and the paper checks that declare none."""

    outcomes: list[MutationOutcome] = field(default_factory=list)
    undeclared: list[tuple[str, str]] = field(default_factory=list)
    insensitive: list[tuple[str, str, str]] = field(default_factory=list)

    @property
    def killed(self) -> int:
        return sum(o.killed for o in self.outcomes)

    @property
    def survived(self) -> int:
        return sum(not o.killed for o in self.outcomes)

    def line(self) -> str:
        return (f"mutations: {self.killed} killed, {self.survived} survived"
                f"; paper checks without a mutation: {len(self.undeclared)}"
                + (f"; declared insensitive: {len(self.insensitive)}" if self.insensitive else ""))

    def extend(self, other: MutationReport) -> None:
        self.outcomes += other.outcomes
        self.undeclared += other.undeclared
        self.insensitive += other.insensitive


def run_mutations(sc: Scenario, checks: list[Check], *, quick: bool, overrides: dict[str, Any] | None = None,
                  progress: Any = None) -> MutationReport:
    """Rerun ``sc`` under every distinct mutation its paper ``checks`` declare (on top of
    ``overrides``) and compare each declaring check's verdict with its verdict in ``checks``."""
    rep = MutationReport()
    by_key: dict[tuple, tuple[Mutation, list[Check]]] = {}
    for c in (c for c in checks if c.judged):
        if c.insensitive:
            rep.insensitive.append((sc.name, c.claim, c.insensitive))
        elif not c.mutations:
            rep.undeclared.append((sc.name, c.claim))
        for m in c.mutations:
            by_key.setdefault(m.key(), (m, []))[1].append(c)
    for m, declaring in by_key.values():
        if progress is not None:
            progress(f"{sc.name}: {m.what}")
        try:
            ds, cfg = sc.execute({**(overrides or {}), **dict(m.overrides)}, quick=quick)
            after = {c.claim: c.status for c in sc.evaluate(ds, cfg)}
            error = ""
        except FrictionLabError as exc:  # an override the scenario refuses: a defect of the declaration
            after, error = {}, f"{type(exc).__name__}: {exc}"
        except Exception as exc:  # noqa: BLE001 - a mutated model may crash: that kills nothing, it is said
            after, error = {}, f"crashed: {type(exc).__name__}: {exc}"
        for c in declaring:
            rep.outcomes.append(MutationOutcome(sc.name, c.claim, m, c.status, after.get(c.claim), error))
    return rep


def mutation_markdown(rep: MutationReport, command: str = "") -> str:
    """``mutations.md``: the counts, every survivor and error, the undeclared checks, every kill."""
    md = ["# Mutation runs", "", f"`{command or 'frictionlab reproduce --mutations'}`: **{rep.line()}**.", "",
          "A mutation is a wrong implementation or a wrong reading of the paper; each paper check declares the ones "
          "under which it must change its verdict. A survivor is a check that cannot tell that wrong model from "
          "the right one.", ""]
    bad = [o for o in rep.outcomes if not o.killed]
    md += [f"## Survivors and errors ({len(bad)})", ""] + ([f"- {o.line()}" for o in bad] or ["None."]) + [""]
    md += [f"## Paper checks without a mutation ({len(rep.undeclared)})", ""]
    md += [f"- {s}: {c}" for s, c in rep.undeclared] or ["None."]
    md += ["", f"## Declared insensitive ({len(rep.insensitive)})", ""]
    md += [f"- {s}: {c}: {why}" for s, c, why in rep.insensitive] or ["None."]
    md += ["", f"## Killed ({rep.killed})", ""] + [f"- {o.line()}" for o in rep.outcomes if o.killed] + [""]
    return "\n".join(md) + "\n"
