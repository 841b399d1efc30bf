"""FMI 2.0 FMUs of the rate laws: generated C, compiled here, zipped with its modelDescription.

:func:`export_fmu` writes ``<out>.fmu`` holding

* ``modelDescription.xml`` (:func:`model_description`): inputs ``slip_velocity`` [m/s] and
  ``normal_force``; outputs ``friction_force`` and the law's states (their start values the
  model's initial state, settable before initialisation); the tunable entries of the
  parameter vector as parameters with units, ``min``/``max`` from the declared range and the
  preset's values as start values; ``internal_step`` [s], the co-simulation RK4 step;
* ``binaries/<platform>/<id>.so`` (``.dylib``, ``.dll``), compiled from the C in ``sources/``:
  the law (:func:`frictionlab.export.csource.c_source`), ``fl_config.h`` (this model's values)
  and the generic wrapper ``fmi2_wrapper.c`` (this package).

Co-simulation holds the inputs over a communication step and takes ``ceil(h / internal_step)``
equal classical RK4 steps: with ``internal_step`` equal to the communication step, the FMU
reproduces ``simulate(model, protocol, integrator="rk4", dt=step)`` for an input that is
constant over each step (``tests/unit/test_export_fmu.py``). Model exchange gives the
derivatives to the importer's solver. Options (the evolution law, the form, normal scaling,
the number of GMS elements) are fixed at export; a parameter set outside its range is refused
in ``fmi2ExitInitializationMode``. Cross-field checks (GMS shares summing to 1, Dahl's
``|f_init| <= fc``) are made on the model at export, not in the FMU.

The FMI 2.0 C headers come from an installed FMPy (``pip install 'frictionlab[fmu]'``) and the
compiler from ``$CC`` (default ``cc``).
"""

from __future__ import annotations

import hashlib
import math
import os
import shutil
import subprocess
import sys
import tempfile
import uuid
import zipfile
from pathlib import Path
from typing import Any
from xml.sax.saxutils import quoteattr

from ..core.errors import ConfigError, FrictionLabError
from .csource import c_double, c_source
from .layout import Entry, c_identifier, param_entries

__all__ = ["export_fmu", "model_description", "fmi2_headers", "find_compiler", "KINDS"]

KINDS = ("both", "cs", "me")
_WRAPPER = Path(__file__).with_name("fmi2_wrapper.c")
_PLATFORMS = {"linux": ("linux64", ".so"), "darwin": ("darwin64", ".dylib"), "win32": ("win64", ".dll")}
# SI base-unit exponents of the unit symbols the laws use
_BASE = {"N": {"kg": 1, "m": 1, "s": -2}, "Pa": {"kg": 1, "m": -1, "s": -2}, "m": {"m": 1}, "s": {"s": 1},
         "kg": {"kg": 1}, "J": {"kg": 1, "m": 2, "s": -2}}


def _base_units(unit: str) -> dict[str, int] | None:
    """SI exponents of ``unit`` ("N s/m", "m/s", "1"); None when a symbol is unknown."""
    out: dict[str, int] = {}
    num, _, den = unit.partition("/")
    for part, sign in ((num, 1), (den, -1)):
        for tok in part.replace("(", " ").replace(")", " ").split():
            sym, _, power = tok.partition("^")
            if sym == "1":
                continue
            if sym not in _BASE:
                return None
            for k, e in _BASE[sym].items():
                out[k] = out.get(k, 0) + sign * e * int(power or 1)
    return {k: e for k, e in out.items() if e}


def _range_text(e: Entry) -> str:
    return f"{'(' if e.lo_open else '['}{e.lo:g}, {e.hi:g}{')' if e.hi_open else ']'}"


def _rate_unit(u: str) -> str:
    """The units of the time derivative of a quantity in ``u``."""
    return {"": "1/s", "1": "1/s", "s": "1"}.get(u, f"{u}/s")


def _variables(model: Any, entries: list[Entry], step: float, fn_start: float) -> list[dict[str, Any]]:
    """The scalar variables in value-reference order (see fmi2_wrapper.c)."""
    fu = model.force_units
    nx = len(model.state_names)
    x0 = model.initial_state()
    var: list[dict[str, Any]] = [
        dict(name="slip_velocity", causality="input", variability="continuous", unit="m/s", start=0.0,
             description="slip velocity v"),
        dict(name="normal_force", causality="input", variability="continuous", unit=fu, start=fn_start,
             description="normal load"),
        dict(name="friction_force", causality="output", variability="continuous", unit=fu, initial="calculated",
             description="friction force opposing the slip velocity"),
    ]
    for i, (s, u) in enumerate(zip(model.state_names, model.state_units)):
        var.append(dict(name=s, causality="output", variability="continuous", unit=u, initial="exact",
                        start=float(x0[i]), description=f"state {i + 1} of {nx}", state=True))
    for i, (s, u) in enumerate(zip(model.state_names, model.state_units)):
        var.append(dict(name=f"der({s})", causality="local", variability="continuous",
                        unit=_rate_unit(u), initial="calculated", derivative=4 + i))
    for i, e in enumerate(entries):
        if e.tunable:
            d = dict(name=e.name, causality="parameter", variability="fixed", unit=e.units or "1", initial="exact",
                     start=e.value, description=(e.doc + " " if e.doc else "") + f"allowed {_range_text(e)}")
            if math.isfinite(e.lo):
                d["min"] = e.lo
            if math.isfinite(e.hi):
                d["max"] = e.hi
            var.append(d)
        else:
            var.append(None)  # type: ignore[arg-type]  # fixed entry: a value reference without a variable
    var.append(dict(name="internal_step", causality="parameter", variability="fixed", unit="s", initial="exact",
                    start=step, min=0.0, description="co-simulation RK4 step (a communication step is split "
                                                     "into ceil(h / internal_step) equal steps)"))
    return var


def model_description(model: Any, *, ident: str, guid: str, kind: str = "both", step: float = 1e-4,
                      stop_time: float | None = None, sources: tuple[str, ...] = ()) -> str:
    """The ``modelDescription.xml`` text of :func:`export_fmu`."""
    entries = param_entries(model)
    fn_start = float(model.typical_inputs.get("normal_force", 1.0))
    var = _variables(model, entries, step, fn_start)
    declared = [(vr, v) for vr, v in enumerate(var) if v is not None]
    index = {vr: i + 1 for i, (vr, _) in enumerate(declared)}
    units = sorted({v["unit"] for _, v in declared})
    stop = float(model.typical_inputs.get("duration", 1.0) if stop_time is None else stop_time)
    from .. import __version__

    options = ", ".join(f"{e.doc}" for e in entries if not e.tunable)
    desc = f"{model.name} friction law (frictionlab {__version__}); {model.citation}" + (
        f" Fixed at export: {options}." if options else "")
    src = "".join(f'      <File name="{s}"/>\n' for s in sources)
    src_block = f"    <SourceFiles>\n{src}    </SourceFiles>\n" if sources else ""
    lines = ['<?xml version="1.0" encoding="UTF-8"?>',
             f'<fmiModelDescription fmiVersion="2.0" modelName={quoteattr(model.name)} guid="{guid}" '
             f'description={quoteattr(desc)} generationTool="frictionlab {__version__}" '
             'variableNamingConvention="structured" numberOfEventIndicators="0">']
    if kind in ("both", "me"):
        lines.append(f'  <ModelExchange modelIdentifier="{ident}" canNotUseMemoryManagementFunctions="true" '
                     f'canGetAndSetFMUstate="false" canSerializeFMUstate="false">\n{src_block}  </ModelExchange>')
    if kind in ("both", "cs"):
        lines.append(f'  <CoSimulation modelIdentifier="{ident}" canHandleVariableCommunicationStepSize="true" '
                     'canNotUseMemoryManagementFunctions="true" canGetAndSetFMUstate="false" '
                     f'canSerializeFMUstate="false">\n{src_block}  </CoSimulation>')
    lines.append("  <UnitDefinitions>")
    for u in units:
        base = _base_units(u)
        if base is None:
            lines.append(f"    <Unit name={quoteattr(u)}/>")
        else:
            attrs = " ".join(f'{k}="{e}"' for k, e in sorted(base.items()))
            lines.append(f"    <Unit name={quoteattr(u)}><BaseUnit {attrs}/></Unit>")
    lines.append("  </UnitDefinitions>")
    lines.append(f'  <DefaultExperiment startTime="0.0" stopTime="{stop!r}" stepSize="{step!r}"/>')
    lines.append("  <ModelVariables>")
    for vr, v in declared:
        head = (f'    <ScalarVariable name={quoteattr(v["name"])} valueReference="{vr}" '
                f'causality="{v["causality"]}" variability="{v["variability"]}"')
        if "initial" in v:
            head += f' initial="{v["initial"]}"'
        if v.get("description"):
            head += f" description={quoteattr(v['description'])}"
        real = f'<Real unit={quoteattr(v["unit"])}'
        for key in ("start", "min", "max"):
            if key in v:
                real += f' {key}="{float(v[key])!r}"'
        if "derivative" in v:
            real += f' derivative="{v["derivative"]}"'
        lines.append(f"{head}>{real}/></ScalarVariable>")
    lines.append("  </ModelVariables>")
    outputs = [index[vr] for vr, v in declared if v["causality"] == "output"]
    ders = [index[vr] for vr, v in declared if "derivative" in v]
    initial = sorted(index[vr] for vr, v in declared if v.get("initial") == "calculated")
    lines.append("  <ModelStructure>")
    lines.append("    <Outputs>" + "".join(f'<Unknown index="{i}"/>' for i in outputs) + "</Outputs>")
    if ders:
        lines.append("    <Derivatives>" + "".join(f'<Unknown index="{i}"/>' for i in ders) + "</Derivatives>")
    lines.append("    <InitialUnknowns>" + "".join(f'<Unknown index="{i}"/>' for i in initial) + "</InitialUnknowns>")
    lines.append("  </ModelStructure>")
    lines.append("</fmiModelDescription>")
    return "\n".join(lines) + "\n"


def _nominals(model: Any) -> list[float]:
    """State scales for the importer's error control: the steady state at the typical inputs."""
    x0 = model.initial_state()
    try:
        ss = model._steady_state(float(model.typical_inputs.get("v", 1e-3)),
                                 float(model.typical_inputs.get("normal_force", 1.0)))
    except Exception:  # noqa: BLE001 -- a nominal is a hint; 1 is always valid
        ss = x0
    out = []
    for a, b in zip(ss, x0):
        scale = abs(a) if math.isfinite(a) and a != 0 else abs(b)
        out.append(float(scale) if math.isfinite(scale) and scale > 0 else 1.0)
    return out


def _config_h(model: Any, ident: str, guid: str, entries: list[Entry], step: float) -> str:
    nx = len(model.state_names)

    def arr(ctype: str, name: str, vals: list[str]) -> str:
        return f"static const {ctype} {name}[{max(len(vals), 1)}] = {{{', '.join(vals) or '0'}}};\n"

    def bound(x: float) -> str:
        return c_double(x) if math.isfinite(x) else ("HUGE_VAL" if x > 0 else "-HUGE_VAL")

    return (f'/* generated by frictionlab for {model.name} */\n#include <math.h>\n#include "{ident}.h"\n'
            f'#define FL_GUID "{guid}"\n#define FL_NX {nx}\n#define FL_NP {len(entries)}\n'
            f"#define FL_RATES {ident}_rates\n#define FL_FRICTION {ident}_friction\n#define FL_RK4 {ident}_rk4_step\n"
            f"#define FL_STEP_START {c_double(step)}\n"
            f"#define FL_FN_START {c_double(float(model.typical_inputs.get('normal_force', 1.0)))}\n"
            + arr("double", "fl_x_start", [c_double(x) for x in model.initial_state()])
            + arr("double", "fl_x_nominal", [c_double(x) for x in _nominals(model)])
            + arr("double", "fl_p_start", [c_double(e.value) for e in entries])
            + arr("int", "fl_p_tunable", ["1" if e.tunable else "0" for e in entries])
            + arr("double", "fl_p_lo", [bound(e.lo) if e.tunable else c_double(e.value) for e in entries])
            + arr("double", "fl_p_hi", [bound(e.hi) if e.tunable else c_double(e.value) for e in entries])
            + arr("int", "fl_p_lo_open", ["1" if e.lo_open and e.tunable else "0" for e in entries])
            + arr("int", "fl_p_hi_open", ["1" if e.hi_open and e.tunable else "0" for e in entries])
            + arr("char *", "fl_p_name", [f'"{e.name}"' for e in entries])
            + arr("char *", "fl_p_range", [f'"{_range_text(e)}"' for e in entries]))


def fmi2_headers() -> Path:
    """The directory of the FMI 2.0 C headers of the installed FMPy (BSD, Modelica Association)."""
    import importlib.util

    spec = importlib.util.find_spec("fmpy")
    for loc in (spec.submodule_search_locations or []) if spec else []:
        d = Path(loc) / "c-code"
        if (d / "fmi2Functions.h").is_file():
            return d
    raise ConfigError("exporting an FMU needs the FMI 2.0 C headers, taken from an installed FMPy: "
                      "pip install 'frictionlab[fmu]' (or fmpy)")


def find_compiler() -> str | None:
    """The C compiler to use: ``$CC``, else ``cc`` or ``gcc`` on the PATH; None when there is none."""
    for name in ([os.environ["CC"]] if os.environ.get("CC") else []) + ["cc", "gcc"]:
        path = shutil.which(name)
        if path:
            return path
    return None


def _compile(src_dir: Path, sources: list[str], out: Path) -> None:
    cc = find_compiler()
    if cc is None:
        raise ConfigError("exporting an FMU needs a C compiler: none found ($CC, cc, gcc); "
                          "'frictionlab export c' writes the sources alone")
    cmd = [cc, "-shared", "-fPIC", "-O2", "-std=c99", f"-I{fmi2_headers()}", f"-I{src_dir}", "-o", str(out),
           *[str(src_dir / s) for s in sources], "-lm"]
    res = subprocess.run(cmd, capture_output=True, text=True, check=False)
    if res.returncode != 0:
        raise FrictionLabError(f"compiling the FMU failed ({' '.join(cmd)}): {res.stderr.strip()[:2000]}")


def export_fmu(model: Any, out: str | Path, *, kind: str = "both", step: float = 1e-4,
               stop_time: float | None = None, ident: str | None = None) -> Path:
    """Write the FMU of ``model`` (a rate law with a C form) to ``out`` and return its path.

    Parameters
    ----------
    model : AbstractLaw
        The law with its parameters (e.g. ``make_model("lugre", "canudas1995")``); its values
        are the FMU's start values.
    out : path
        The ``.fmu`` file to write (its directory is created).
    kind : {"both", "cs", "me"}
        Co-simulation, model exchange or both.
    step : float
        Default ``internal_step`` [s] of co-simulation (and the default experiment's step).
    stop_time : float, optional
        The default experiment's stop time [s] (default: the model's typical duration).
    ident : str, optional
        The model identifier (the binary's name and the C prefix; default ``frictionlab_<name>``).
    """
    if kind not in KINDS:
        raise ConfigError(f"FMU kind {kind!r} is not one of {list(KINDS)}")
    if not (step > 0 and math.isfinite(step)):
        raise ConfigError(f"FMU internal step = {step!r} s must be > 0")
    if stop_time is not None and not (stop_time > 0 and math.isfinite(stop_time)):
        raise ConfigError(f"FMU stop time = {stop_time!r} s must be > 0")
    plat = _PLATFORMS.get(sys.platform)
    if plat is None:
        raise ConfigError(f"no FMU binary platform for {sys.platform!r}; 'frictionlab export c' writes the sources")
    ident = c_identifier(ident or f"frictionlab_{model.name}")
    entries = param_entries(model)
    law = c_source(model, ident)
    sources = (*law, "fl_config.h", "fmi2_wrapper.c")
    # the GUID is a hash of everything the binary is built from, so equal inputs give equal FMUs
    digest = hashlib.sha256()
    digest.update(model_description(model, ident=ident, guid="", kind=kind, step=step, stop_time=stop_time,
                                    sources=()).encode())
    for text in law.values():
        digest.update(text.encode())
    digest.update(_WRAPPER.read_bytes())
    guid = "{" + str(uuid.UUID(bytes=digest.digest()[:16], version=4)) + "}"
    c_files = [s for s in sources if s.endswith(".c")]
    xml = model_description(model, ident=ident, guid=guid, kind=kind, step=step, stop_time=stop_time,
                            sources=tuple(c_files))
    out = Path(out)
    if out.is_dir():
        raise ConfigError(f"--out {out} is a directory; give the .fmu file to write, e.g. {out / (model.name + '.fmu')}")
    out.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="frictionlab-fmu-") as tmp:
        src = Path(tmp) / "sources"
        src.mkdir()
        for name, text in law.items():
            (src / name).write_text(text)
        (src / "fl_config.h").write_text(_config_h(model, ident, guid, entries, step))
        shutil.copyfile(_WRAPPER, src / "fmi2_wrapper.c")
        binary = Path(tmp) / f"{ident}{plat[1]}"
        _compile(src, c_files, binary)
        from ..core.files import atomic_target

        with atomic_target(out) as target, zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as zf:
            zf.writestr("modelDescription.xml", xml)
            zf.write(binary, f"binaries/{plat[0]}/{ident}{plat[1]}")
            for name in sources:
                zf.write(src / name, f"sources/{name}")
    return out
