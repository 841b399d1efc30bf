"""Result digests of ``simulate`` on every registered model and every one of its drivers.

Usage::

    PYTHONPATH=src python tools/driver_digests.py OUT.json [model ...]
    python tools/driver_digests.py --compare BEFORE.json AFTER.json

Each case is (model, driver, system, protocol kind, settings): the model's contract case
(``model.contract_case()``: the instance and its inputs, ``dt = duration / steps``) under the
contract's protocols (one velocity, velocity steps, a normal-load programme), in every system the
driver hosts among prescribed slip, a spring-slider, the quasi-static slider and the servo, by
default and with ``t_end`` / ``save_dt`` given. A case records either the SHA-256 of every data
variable, coordinate and attribute (``sha256`` of the values' bytes, dtype and dims; attributes
by their ``repr``) or the error it raised. ``--compare`` prints what differs: values, attributes
added/removed/changed, errors.
"""

from __future__ import annotations

import hashlib
import json
import sys
import time


def _hash_values(var) -> str:
    import numpy as np

    a = np.ascontiguousarray(np.asarray(var.values))
    h = hashlib.sha256(str((a.dtype.str, a.shape, tuple(var.dims))).encode())
    if a.dtype.kind == "O":
        h.update(repr(a.tolist()).encode())
    else:
        h.update(a.tobytes())
    return h.hexdigest()[:16]


#: attributes that name the software and the call, not the result (core/provenance.py)
_PROVENANCE = {"frictionlab_call", "frictionlab_version", "history", "source", "date_created", "git_revision"}


def digest(ds) -> dict:
    ds = ds.to_dataset() if hasattr(ds, "to_dataset") and type(ds).__name__ == "LazyDataset" else ds
    out = {"vars": {}, "var_attrs": {}, "attrs": {}}
    for name in sorted(map(str, ds.variables)):
        out["vars"][name] = _hash_values(ds[name])
        out["var_attrs"][name] = {k: repr(v) for k, v in sorted(ds[name].attrs.items())}
    out["attrs"] = {k: repr(v) for k, v in sorted(ds.attrs.items()) if k not in _PROVENANCE}
    return out


def cases(names):
    from frictionlab.control.servo import ServoSystem
    from frictionlab.core.registry import make_model
    from frictionlab.protocols import PulsatingThreshold
    from frictionlab.solve import drivers_for
    from frictionlab.systems import MassSystem, PrescribedSlip, QuasiStaticSlider
    from frictionlab.testing import contract_protocols

    for name in names:
        case = make_model(name).contract_case()
        model, inputs = case.model, dict(case.inputs)
        fn = float(inputs["normal_force"])
        systems = [PrescribedSlip(), MassSystem(mass=1.0, stiffness=1e3 * max(fn, 1e-12)),
                   QuasiStaticSlider(stiffness=1e3 * max(fn, 1e-12)), ServoSystem()]
        prots = contract_protocols(inputs)
        for dname, drv in drivers_for(model).items():
            for system in systems:
                if not drv.hosts(system) or (isinstance(system, QuasiStaticSlider) and QuasiStaticSlider not in drv.systems):
                    continue
                if isinstance(system, MassSystem) and drv.adaptive:
                    continue  # the same run_law path as under prescribed slip; they crawl on stiff laws
                kinds = dict(prots)
                if drv.feedback and name.startswith("subloading"):
                    kinds = {"pulsating": PulsatingThreshold(v=1e-4, upper=0.5 * model.s_max * model.tau0 if hasattr(model, "s_max") else 0.5 * fn,
                                                             lower=0.0, cycles=3, max_duration=1e3,
                                                             normal_force_value=fn)}
                for kind, prot in kinds.items():
                    T = float(prot.duration)
                    dt = T / case.steps if T < 1e6 else None
                    settings = [{"dt": dt}]
                    if kind == "constant_velocity" and dname not in ("hold",):
                        settings += [{"dt": dt, "t_end": 0.5 * T}, {"dt": dt, "save_dt": T / 50}, {}]
                    for st in settings:
                        label = f"{name}|{dname}|{system.type_name}|{kind}|" + ",".join(f"{k}={v:.6g}" for k, v in st.items() if v is not None)
                        yield label, model, prot, system, dname, {k: v for k, v in st.items() if v is not None}


def run(out_path: str, names: list[str]) -> None:
    import frictionlab  # noqa: F401
    from frictionlab.core.registry import model_names
    from frictionlab.solve import simulate

    names = names or model_names()
    res = {}
    for label, model, prot, system, dname, st in cases(names):
        t0 = time.perf_counter()
        try:
            ds = simulate(model, prot, system=system, integrator=dname, **st)
            res[label] = digest(ds)
        except Exception as exc:  # noqa: BLE001 - recorded, compared before/after
            res[label] = {"error": f"{type(exc).__name__}: {exc}"[:400]}
        print(f"{time.perf_counter() - t0:7.2f} s  {label}  {'ERR ' + res[label]['error'][:80] if 'error' in res[label] else 'ok'}",
              flush=True)
        with open(out_path, "w") as fh:
            json.dump(res, fh, indent=1, sort_keys=True)


def compare(a_path: str, b_path: str) -> int:
    a, b = json.load(open(a_path)), json.load(open(b_path))
    same_vals = diff_vals = 0
    for label in sorted(set(a) | set(b)):
        x, y = a.get(label), b.get(label)
        if x is None or y is None:
            print(f"{label}: only in {'after' if x is None else 'before'}")
            continue
        if "error" in x or "error" in y:
            if x.get("error") != y.get("error"):
                print(f"{label}: error\n   before: {x.get('error', 'ran')}\n   after:  {y.get('error', 'ran')}")
            continue
        dv = {k for k in set(x["vars"]) | set(y["vars"]) if x["vars"].get(k) != y["vars"].get(k)}
        changed = {k for k in dv if k in x["vars"] and k in y["vars"]}
        added = sorted(set(y["vars"]) - set(x["vars"]))
        removed = sorted(set(x["vars"]) - set(y["vars"]))
        if changed:
            diff_vals += 1
        else:
            same_vals += 1
        ka, kb = ({k: v for k, v in d["attrs"].items() if k not in _PROVENANCE} for d in (x, y))
        at_add = sorted(set(kb) - set(ka))
        at_rem = sorted(set(ka) - set(kb))
        at_chg = sorted(k for k in set(ka) & set(kb) if ka[k] != kb[k])
        va = sorted(k for k in set(x["var_attrs"]) & set(y["var_attrs"]) if x["var_attrs"][k] != y["var_attrs"][k])
        if changed or added or removed or at_add or at_rem or at_chg or va:
            print(f"{label}:")
            if changed:
                print(f"   VALUES CHANGED: {sorted(changed)}")
            if added or removed:
                print(f"   variables added {added} removed {removed}")
            if at_add or at_rem or at_chg:
                print(f"   attrs added {at_add} removed {at_rem} changed "
                      + ", ".join(f"{k}: {ka[k]} -> {kb[k]}" for k in at_chg))
            for k in va:
                print(f"   {k}.attrs: {x['var_attrs'][k]} -> {y['var_attrs'][k]}")
    print(f"cases that ran: values bit-identical in {same_vals}, changed in {diff_vals}")
    return 1 if diff_vals else 0


if __name__ == "__main__":
    if sys.argv[1] == "--compare":
        sys.exit(compare(sys.argv[2], sys.argv[3]))
    run(sys.argv[1], sys.argv[2:])
