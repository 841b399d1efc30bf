"""``frictionlab list`` and ``frictionlab show``: what the library holds, in full.

``list`` prints every model, protocol, system and scenario with its whole one-line
description (wrapped to the terminal, never cut), filtered by ``--paper`` and ``--kind``.
``show MODEL[/PRESET]`` (or ``show MODEL --preset PRESET``) prints a model's parameters (units, defaults, allowed ranges, meaning
from the ``param(...)`` metadata), its drivers, and its presets with their values and
sources; ``show SCENARIO`` prints the resolved scenario configuration as TOML (a scenario name wins
over ``MODEL/PRESET``: ``kloss/fig5`` is the scenario, ``kloss --preset fig5`` the preset); ``show``
of a protocol or system type prints its fields. Nothing here runs or compiles a model.

``list``, ``show MODEL`` and ``show SCENARIO`` print from :func:`build_index` (everything they
show, as text; ``show SCENARIO --set ...`` computes its config); a
fresh process reads it from the index file of :mod:`frictionlab.cli.index` instead of importing
every model and scenario module (numba, scipy, xarray), a process that has loaded the
registries builds it from them.
"""

from __future__ import annotations

import dataclasses
import inspect
import shutil
import sys
import textwrap
from typing import Annotated, Any, Optional

import typer

from ..core.docstrings import docstring_params as _docstring_params
from ..core.docstrings import plain as _plain
from ..core.errors import ConfigError, suggest

__all__ = ["register", "catalogue", "describe", "KINDS"]

KINDS = ("model", "protocol", "system", "scenario")


def _first_paragraph(text: str | None) -> str:
    text = inspect.cleandoc(text or "")
    return _plain(" ".join(text.split("\n\n", 1)[0].split()))


def _papers_by_name() -> dict[tuple[str, str], set[str]]:
    """``(kind, name) -> papers`` whose scenarios use that model / protocol / system type."""
    from ..scenarios import get_scenario, scenario_names

    out: dict[tuple[str, str], set[str]] = {}
    for n in scenario_names():
        sc = get_scenario(n)
        for kind, section, key in (("model", "model", "name"), ("protocol", "protocol", "type"), ("system", "system", "type")):
            table = sc.config.get(section)
            if isinstance(table, dict) and isinstance(table.get(key), str):
                out.setdefault((kind, table[key]), set()).add(sc.paper)
    return out


def _live_rows() -> list[list[str]]:
    """Rows ``[kind, name, papers, description]`` of everything registered (imports every module).

    A model, protocol or system belongs to the papers whose scenarios use it; a rate law no
    scenario uses belongs to ``classic``.
    """
    from ..core.registry import get_model_class, model_names, presets_of
    from ..protocols.base import _PROTOCOLS
    from ..scenarios import get_scenario, scenario_names
    from ..systems.base import _SYSTEMS

    papers = _papers_by_name()
    rows: list[list[str]] = []
    for n in model_names():
        cls = get_model_class(n)
        ps = papers.get(("model", n)) or ({"classic"} if cls.__module__.startswith("frictionlab.laws") else set())
        pre = sorted(presets_of(n))
        desc = _first_paragraph(cls.__doc__) + (f" Presets: {', '.join(pre)}." if pre else "")
        rows.append(["model", n, ", ".join(sorted(ps)), desc])
    for kind_, reg in (("protocol", _PROTOCOLS), ("system", _SYSTEMS)):
        for n in sorted(reg):
            rows.append([kind_, n, ", ".join(sorted(papers.get((kind_, n), ()))), _first_paragraph(reg[n].__doc__)])
    for n in scenario_names():
        sc = get_scenario(n)
        rows.append(["scenario", n, sc.paper, _plain(" ".join(sc.description.split()))])
    return rows


def _live_names() -> dict[str, list[str]]:
    from ..core.registry import model_names
    from ..protocols.base import _PROTOCOLS
    from ..scenarios import scenario_names
    from ..systems.base import _SYSTEMS

    models = model_names()  # first: registers the control package's system too
    return {"model": models, "scenario": scenario_names(), "protocol": sorted(_PROTOCOLS), "system": sorted(_SYSTEMS)}


def build_index() -> dict[str, Any]:
    """What ``list`` and ``show`` print, from the live registries (imports every model and
    scenario module); :func:`frictionlab.cli.index.cached_index` keeps it on disk."""
    names = _live_names()
    return {"rows": _live_rows(), "papers": sorted({n.split("/")[0] for n in names["scenario"]}), "names": names,
            "models": {n: _model_info(n) for n in names["model"]},
            "scenarios": {n: info for n in names["scenario"] if (info := _scenario_info_or_none(n))}}


def _scenario_info_or_none(name: str) -> dict[str, Any] | None:
    """:func:`_scenario_info`, or None for a scenario whose config cannot be shown (``show`` then
    computes it and reports the error)."""
    from ..core.errors import FrictionLabError

    try:
        return _scenario_info(name)
    except FrictionLabError:
        return None


def _live() -> bool:
    """Whether this process has registered anything already (perhaps its own models or scenarios):
    then ``list``/``show`` read the live registries, else the index file (a fresh ``frictionlab``)."""
    reg, sc = sys.modules.get("frictionlab.core.registry"), sys.modules.get("frictionlab.scenarios.base")
    return bool(getattr(reg, "_MODELS", None) or getattr(sc, "_SCENARIOS", None))


def _index() -> dict[str, Any]:
    from .index import cached_index

    return cached_index(build_index)


def catalogue(paper: str | None = None, kind: str | None = None) -> list[tuple[str, str, str, str]]:
    """Rows ``(kind, name, papers, description)`` of everything registered, filtered (from the index).

    A model, protocol or system belongs to the papers whose scenarios use it; a rate law no
    scenario uses belongs to ``classic``.
    """
    if kind is not None and kind not in KINDS:
        raise ConfigError(f"unknown kind {kind!r}{suggest(kind, KINDS)}; choose one of {', '.join(KINDS)}")
    if _live():
        all_papers, rows = sorted({n.split("/")[0] for n in _live_names()["scenario"]}), _live_rows()
    else:
        idx = _index()
        all_papers, rows = idx["papers"], idx["rows"]
    if paper is not None and paper not in all_papers:
        raise ConfigError(f"unknown paper {paper!r}{suggest(paper, all_papers)}; papers: {', '.join(all_papers)}")
    return [(r[0], r[1], r[2], r[3]) for r in rows if (kind is None or r[0] == kind)
            and (paper is None or paper in r[2].split(", "))]


def _wrap_rows(rows: list[tuple[str, str, str, str]], width: int) -> str:
    lines: list[str] = []
    for kind in KINDS:
        sub = [r for r in rows if r[0] == kind]
        if not sub:
            continue
        lines.append(f"{kind}s ({len(sub)}):")
        w = min(max(len(r[1]) for r in sub), 34)
        indent = " " * (w + 4)
        for _, name, papers, desc in sub:
            head = f"  {name:<{w}}  "
            text = desc + (f" [{papers}]" if papers and kind != "scenario" else "")
            body = textwrap.wrap(text, width=max(width - len(indent), 30), break_on_hyphens=False, break_long_words=False) or [""]
            if len(head) > len(indent):  # a long name gets its own line
                lines.append(head.rstrip())
                lines.extend(indent + b for b in body)
            else:
                lines.append(head + body[0])
                lines.extend(indent + b for b in body[1:])
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"


def _range(m: dict[str, Any]) -> str:
    if m.get("kind") == "option":
        return "one of " + ", ".join(repr(c) for c in m["choices"])
    if m.get("kind") != "number":
        return ""
    lo, hi = m["lo"], m["hi"]
    text = f"{'(' if m['lo_open'] else '['}{lo:g}, {hi:g}{')' if m['hi_open'] else ']'}"
    return text + (" integer" if m.get("integer") else "")


def _fmt(v: Any) -> str:
    if v is dataclasses.MISSING:
        return "(required)"
    if hasattr(v, "accepts") and hasattr(v, "kinds"):  # a driver's OptionSpec: its default and what it takes
        return f"{_fmt(v.default)} ({v.kinds})"
    if isinstance(v, float):
        return f"{v:.6g}"
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_fmt(x) for x in v) + "]"
    return repr(v) if isinstance(v, str) else str(v)


def _field_rows(cls: type) -> list[list[str]]:
    """``[name, units, default, range, meaning]`` of each field of a parameter dataclass."""
    docs = _docstring_params(cls)
    rows = []
    for f in dataclasses.fields(cls):
        m = dict(f.metadata)
        default = f.default if f.default is not dataclasses.MISSING else (
            f.default_factory() if f.default_factory is not dataclasses.MISSING else dataclasses.MISSING)  # type: ignore[misc]
        rows.append([f.name, m.get("units", "") or "-", _fmt(default), _range(m),
                     _plain(" ".join((m.get("doc") or docs.get(f.name, "")).split()))])
    return rows


def _fields_table(fields: list[list[str]], values: dict[str, str] | None, width: int) -> list[str]:
    rows = []
    for name, units, default, rng, doc in fields:
        row = [name, units, default, rng]
        if values is not None:
            row.insert(2, values.get(name, ""))
        rows.append((row, doc))
    head = ["name", "units", *(["preset"] if values is not None else []), "default", "range"]
    widths = [max(len(h), *(len(r[0][i]) for r in rows)) if rows else len(h) for i, h in enumerate(head)]
    out = ["  " + "  ".join(h.ljust(w) for h, w in zip(head, widths)) + "  meaning"]
    used = 2 + sum(widths) + 2 * len(widths)
    for row, doc in rows:
        line = "  " + "  ".join(c.ljust(w) for c, w in zip(row, widths)) + "  "
        wrapped = textwrap.wrap(doc, width=max(width - used, 30)) or [""]
        out.append((line + wrapped[0]).rstrip())
        out.extend(" " * used + w for w in wrapped[1:])
    return out


def _model_info(name: str) -> dict[str, Any]:
    """What ``show MODEL[/PRESET]`` prints of a model, as JSON-able text (imports the model and drivers)."""
    from ..core.errors import ParameterError
    from ..core.registry import get_model_class, presets_of
    from ..solve.drivers import default_driver, drivers_for
    from ..systems.base import _SYSTEMS

    cls = get_model_class(name)
    sn, su = getattr(cls, "state_names", ()), getattr(cls, "state_units", ())
    fu = getattr(cls, "force_units", "")
    default_in: dict[str, list[str]] = {}  # driver -> the systems (default-constructed) it is the default in
    for sname, scls in sorted(_SYSTEMS.items()):
        try:
            default_in.setdefault(default_driver(cls, scls()).name, []).append(sname)
        except (ConfigError, ParameterError, TypeError):
            pass
    drivers = []
    for d in drivers_for(cls).values():
        opts = ", ".join(f"{k}={_fmt(v)}" for k, v in d.options.items())
        systems = ", ".join(s.type_name or "any" for s in d.systems)
        refuses = "; ".join(f"{k} ({why})" for k, why in d.refuses.items())
        drivers.append(f"{d.name}{' (default in ' + ', '.join(default_in[d.name]) + ')' if d.name in default_in else ''}: "
                       f"{(d.description or '-').rstrip('.')}. Systems: {systems}." + (f" Options: {opts}." if opts else "")
                       + (f" Refuses: {refuses}." if refuses else ""))
    return {"qualname": f"{cls.__module__}.{cls.__qualname__}", "doc": _first_paragraph(cls.__doc__),
            "citation": str(getattr(cls, "citation", "") or ""),
            "states": [f"{k} [{u}]" for k, u in zip(sn, su)] if isinstance(sn, tuple) and isinstance(su, tuple) else [],
            "force_units": fu if isinstance(fu, str) else "",
            "fields": _field_rows(cls), "drivers": drivers,
            "presets": {pn: {"source": ps.source, "doi": ps.doi, "note": ps.note,
                             "values": {k: _fmt(v) for k, v in ps.params.items()}}
                        for pn, ps in sorted(presets_of(name).items())}}


def _describe_model(name: str, info: dict[str, Any], preset: str | None, width: int) -> str:
    presets = info["presets"]
    if preset is not None and preset not in presets:
        raise ConfigError(f"model {name!r} has no preset {preset!r}{suggest(preset, presets)}; "
                          f"known: {', '.join(sorted(presets)) or 'none'}")
    wrap = lambda text, ind="  ": textwrap.fill(text, width=width, initial_indent=ind, subsequent_indent=ind)  # noqa: E731
    lines = [f"model {name}" + (f" / preset {preset}" if preset else "") + f"  ({info['qualname']})",
             wrap(info["doc"])]
    if info["citation"]:
        lines += ["reference:", wrap(info["citation"])]
    if info["states"]:
        lines.append("states: " + ", ".join(info["states"]))
    if info["force_units"]:
        lines.append(f"force units: {info['force_units']}")
    lines.append("")
    if preset is not None:
        ps = presets[preset]
        lines += [f"preset {preset}:", wrap(f"source: {ps['source']}" + (f" (doi:{ps['doi']})" if ps["doi"] else ""))]
        if ps["note"]:
            lines.append(wrap(f"note: {ps['note']}"))
        lines.append("")
    lines.append("parameters" + (" (the preset's values; the others take the default):" if preset else ":"))
    lines += _fields_table(info["fields"], presets[preset]["values"] if preset else None, width)
    lines.append("")
    drivers = info["drivers"]
    lines.append(f"drivers ({len(drivers)}; simulate(..., integrator=NAME) or [integrator] driver = NAME):")
    for text in drivers:
        lines.append(textwrap.fill(text, width=width, initial_indent="  ", subsequent_indent="      "))
    if not drivers:
        lines.append("  none registered")
    if preset is None:
        lines += ["", f"presets ({len(presets)}; show {name}/PRESET for one preset's values):"]
        for pn in sorted(presets):
            ps = presets[pn]
            lines.append(textwrap.fill(f"{pn}: {ps['source']}" + (f" (doi:{ps['doi']})" if ps["doi"] else ""),
                                       width=width, initial_indent="  ", subsequent_indent="      "))
    return "\n".join(lines) + "\n"


def _scenario_info(name: str, overrides: dict[str, Any] | None = None,
                   profiles: tuple[bool, ...] = (False, True)) -> dict[str, Any]:
    """What ``show SCENARIO`` prints, as text: the resolved config as TOML per profile (full,
    quick), with ``overrides`` applied (imports the scenario and the models)."""
    from ..scenarios import get_scenario

    sc = get_scenario(name)
    return {"description": " ".join(sc.description.split()), "references": list(sc.references),
            "quick": ", ".join(f"{k} = {_fmt(v)}" for k, v in sc.quick.items()),
            "toml": {str(q): sc.dump_toml(sc.resolved_config(overrides, q), scenario=sc.name)
                     for q in profiles}}


def _describe_scenario(name: str, overrides: dict[str, Any], quick: bool, width: int,
                       info: dict[str, Any] | None = None) -> str:
    info = info if info is not None and not overrides else _scenario_info(name, overrides, (quick,))
    head = [f"# scenario {name}" + (" (quick profile)" if quick else "")]
    head += textwrap.wrap(info["description"], width=width - 2, initial_indent="# ", subsequent_indent="# ")
    for ref in info["references"]:
        head += textwrap.wrap(ref, width=width - 2, initial_indent="# reference: ", subsequent_indent="#   ")
    if info["quick"] and not quick:
        head.append("# --quick sets: " + info["quick"])
    head.append(f"# run it: frictionlab run {name}; edit: frictionlab run {name} --dump --out cfg/")
    return "\n".join(head) + "\n\n" + info["toml"][str(quick)]


def _describe_type(kind: str, cls: type, width: int) -> str:
    lines = [f"{kind} {cls.type_name}  ({cls.__module__}.{cls.__qualname__})",
             textwrap.fill(_first_paragraph(cls.__doc__), width=width, initial_indent="  ", subsequent_indent="  "),
             "", "fields:"]
    lines += _fields_table(_field_rows(cls), None, width)
    return "\n".join(lines) + "\n"


def describe(target: str, *, overrides: dict[str, Any] | None = None, quick: bool = False, width: int = 100,
             preset: str | None = None) -> str:
    """Text of ``frictionlab show TARGET`` (scenario, model[/preset], protocol or system type).

    A scenario name wins over ``MODEL/PRESET`` (``kloss/fig5`` is a scenario and a preset of the
    model ``kloss``): the preset is ``show kloss --preset fig5`` (``preset``), which the scenario's
    text points to.
    """
    live = _live()
    idx: dict[str, Any] = {} if live else _index()
    names = _live_names() if live else idx["names"]
    head, _, tail = target.partition("/")
    if preset is not None and (tail or head not in names["model"]):
        raise ConfigError(f"--preset {preset!r} goes with a model name (frictionlab show MODEL --preset NAME), "
                          f"not with {target!r}")
    if target in names["scenario"]:  # a scenario name wins over MODEL/PRESET (kloss/fig5 is both)
        text = _describe_scenario(target, overrides or {}, quick, width, None if live else idx["scenarios"].get(target))
        if head in names["model"] and tail in (_model_info(head) if live else idx["models"][head])["presets"]:
            text = (f"# (model {head} also has a preset {tail}: frictionlab show {head} --preset {tail})\n"
                    + text)
        return text
    if head in names["model"]:
        if overrides or quick:
            raise ConfigError("--set and --quick apply to scenarios, not to models")
        info = _model_info(head) if live else idx["models"][head]
        if tail and tail not in info["presets"]:
            papers = sorted({n.split("/")[0] for n in names["scenario"]})
            near = suggest(target, names["scenario"]) if head in papers else ""
            raise ConfigError(f"no scenario {target!r}{near} and model {head!r} has no preset {tail!r}"
                              f"{suggest(tail, info['presets'])}; 'frictionlab list' shows every name")
        return _describe_model(head, info, preset or tail or None, width)
    if overrides or quick:
        raise ConfigError("--set and --quick apply to scenarios only")
    if target in names["protocol"]:
        from ..protocols.base import _PROTOCOLS

        return _describe_type("protocol", _PROTOCOLS[target], width)
    if target in names["system"]:
        from ..core.registry import discover
        from ..systems.base import _SYSTEMS

        discover()  # the control package's servo system
        return _describe_type("system", _SYSTEMS[target], width)
    known = [n for group in names.values() for n in group]
    raise ConfigError(f"nothing called {target!r}{suggest(target, known)}; 'frictionlab list' shows every name")


def _width() -> int:
    return max(60, min(shutil.get_terminal_size((100, 24)).columns, 120))


def register(app: typer.Typer) -> None:
    """Add ``list`` and ``show`` to the frictionlab CLI."""

    @app.command("list")
    def list_cmd(
        what: Annotated[Optional[str], typer.Argument(help="models | protocols | systems | scenarios (same as --kind)")] = None,
        paper: Annotated[Optional[str], typer.Option("--paper", help="only what this paper's scenarios use (classic, kloss, ...)")] = None,
        kind: Annotated[Optional[str], typer.Option("--kind", help="model | scenario | protocol | system")] = None,
    ) -> None:
        """List models (with presets), protocols, systems and scenarios, with full descriptions."""
        if what is not None:
            singular = what[:-1] if what.endswith("s") else what
            if singular not in KINDS:
                groups = [k + "s" for k in KINDS]
                raise ConfigError(f"cannot list {what!r}{suggest(what, groups)}; choose one of {', '.join(groups)}")
            if kind is not None and kind != singular:
                raise ConfigError(f"'list {what}' and '--kind {kind}' disagree; give one of them")
            kind = singular
        rows = catalogue(paper, kind)
        typer.echo(_wrap_rows(rows, _width()) if rows else "nothing matches", nl=False)
        if not rows:
            typer.echo("")

    @app.command("show")
    def show_cmd(
        target: Annotated[str, typer.Argument(help="MODEL, MODEL/PRESET, SCENARIO, protocol type or system type")],
        set_: Annotated[Optional[list[str]], typer.Option("--set", help="scenario override, e.g. model.a=0.011")] = None,
        quick: Annotated[bool, typer.Option("--quick", help="scenario: show the quick profile's config")] = False,
        preset: Annotated[Optional[str], typer.Option(
            "--preset", help="with MODEL: one preset's values (MODEL/PRESET is the same, unless a scenario has "
                             "that name: kloss/fig5 is the scenario)")] = None,
    ) -> None:
        """Show a model's parameters (units, defaults, ranges), drivers and presets, or a scenario's config."""
        overrides: dict[str, Any] = {}
        if set_:  # scenarios only; the config module loads the scenario machinery
            from ..solve.config import parse_set

            overrides = parse_set(set_)
        typer.echo(describe(target, overrides=overrides, quick=quick, width=_width(), preset=preset), nl=False)
