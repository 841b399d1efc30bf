r"""Where the microjunction's normalised quantities meet SI: the one conversion of the family.

The kernels (:mod:`.junction`, :mod:`.ensemble`) integrate the appendix's normalised variables,
interference :math:`\delta^* = \delta/\delta_c`, area :math:`A^* = A/A_c`, force
:math:`F^* = F/F_c` and mean pressure :math:`p^* = p/\sigma_Y` (Goedecke 2013, App. A,
"Normalization constants"; :func:`.jackson_green.normalisation`). Everything that enters or
leaves them in SI goes through :class:`Scales`: the load history of a protocol in N
(:meth:`Scales.force_star`, used by :meth:`.junction.ForceHistory.from_protocol`), a start
state in m and m^2 (:meth:`Scales.start_state`), and the result variables
(:meth:`Scales.junction_variables`, :meth:`Scales.ensemble_variables`).

Result variables, SI (the standard names): ``normal_force`` [N], ``contact_area`` [m^2],
``friction_force`` [N] (Bowden--Tabor, :math:`\tau A`), ``friction_coefficient`` [1],
``approach`` [m] (the flat's approach from first touch: the interference of a single junction,
that of the highest summit of an ensemble, as ``approach`` of the rough-contact solver),
``pressure`` [Pa] (mean contact pressure :math:`F/A`); a single junction adds
``approach_max`` [m] (the history variable :math:`\delta_{max}`). The normalised values stay
beside them as extras named ``*_star`` [1]. ``normal_force`` is the applied load (the protocol's;
a load below the preload ``f0`` is refused); an ensemble adds ``summed_force_star``, the junctions'
forces summed, which equals it within the solver tolerance.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

__all__ = ["Scales", "SI_UNITS"]

#: units of the SI variables beside the standard ones (``approach`` [m], ``pressure`` [Pa] and the
#: others are :data:`frictionlab.core.result.STANDARD_UNITS`)
SI_UNITS = {"approach_max": "m"}


@dataclass(frozen=True)
class Scales:
    """Critical values of one junction (Appendix A normalisation) and its shear strength.

    Attributes
    ----------
    delta_c : float
        Critical interference [m].
    area_c : float
        Critical contact area [m^2].
    force_c : float
        Critical load [N].
    sigma_y : float
        Yield stress, the scale of :math:`p^*` [Pa].
    shear_strength : float
        Junction shear strength :math:`\\tau` [Pa] (Bowden--Tabor friction :math:`\\tau A`).
    """

    delta_c: float
    area_c: float
    force_c: float
    sigma_y: float
    shear_strength: float

    @classmethod
    def of(cls, model: Any) -> "Scales":
        """The scales of a :class:`~.junction.Microjunction`."""
        c = model.constants
        return cls(c["delta_c"], c["area_c"], c["force_c"], float(model.sigma_y), float(model.shear_strength))

    # --- into the kernels ------------------------------------------------------------------
    def force_star(self, force: ArrayLike) -> Any:
        """:math:`F^*` [1] of a load [N] (a float for a float)."""
        return force * (1.0 / self.force_c)

    def start_state(self, approach: float, contact_area: float) -> tuple[float, float]:
        """``(delta*, A*)`` [1] of a junction's approach [m] and contact area [m^2]."""
        return float(approach) / self.delta_c, float(contact_area) / self.area_c

    # --- out of the kernels ----------------------------------------------------------------
    def newtons(self, force_star: Any) -> Any:
        """The load [N] of a normalised load :math:`F^*` [1] (a float or an array, as given)."""
        return force_star * self.force_c

    def friction_force(self, area_star: ArrayLike) -> NDArray[np.float64]:
        """Bowden--Tabor friction :math:`\\tau A` [N] of the normalised area ``area_star``."""
        return self.shear_strength * (np.asarray(area_star, dtype=float) * self.area_c)

    def _contact(self, force_star: NDArray, area_star: NDArray) -> dict[str, NDArray]:
        force = self.newtons(np.asarray(force_star, dtype=float))
        area = np.asarray(area_star, dtype=float) * self.area_c
        friction = self.friction_force(area_star)
        with np.errstate(divide="ignore", invalid="ignore"):
            return {"normal_force": force, "contact_area": area, "friction_force": friction,
                    "friction_coefficient": friction / force, "pressure": force / area}

    def junction_variables(self, delta: NDArray, area: NDArray, delta_max: NDArray, force: NDArray,
                           pressure_star: NDArray) -> tuple[dict[str, NDArray], dict[str, str]]:
        """SI variables and the starred extras of one junction's normalised trajectory, and their units."""
        data = {**self._contact(force, area), "approach": np.asarray(delta) * self.delta_c,
                "approach_max": np.asarray(delta_max) * self.delta_c,
                "delta_star": delta, "area_star": area, "delta_max_star": delta_max, "force_star": force,
                "pressure_star": pressure_star}
        return data, _units(data)

    def ensemble_variables(self, separation: NDArray, top: float, area: NDArray, force: NDArray,
                           summed: NDArray) -> tuple[dict[str, NDArray], dict[str, str]]:
        """SI variables and starred extras of an ensemble: total area, the applied load ``force``, the
        junctions' summed force (equal to it within the solver tolerance) and the flat's separation
        (``top`` is the highest summit's normalised height: ``approach = (top - separation) delta_c``)."""
        data = {**self._contact(force, area), "approach": (top - np.asarray(separation)) * self.delta_c,
                "area_star": area, "force_star": force, "summed_force_star": summed, "separation_star": separation}
        return data, _units(data)


def _units(data: dict[str, Any]) -> dict[str, str]:
    return {k: SI_UNITS.get(k, "1") for k in data if k.endswith("_star") or k in SI_UNITS}
