"""LuGre / beam-spring network model of soft-solid frictional contact (beam-network paper, doi:10.1115/1.4042247).

* :mod:`.geometry` -- contact patch grid from the Fig. 7 load polynomial, neighbour pairs;
* :mod:`.params` -- :class:`BeamNetworkParams` (model ``beam_network``) and presets;
* :mod:`.lbnm` -- the 2-D network (LBNM), :func:`run_lbnm`;
* :mod:`.mlbnm` -- integrated unit beams (MLBNM) and the single IUB, :func:`run_mlbnm`,
  :func:`run_mlbnm_batch` (parallel over cases), :func:`iub_linear_eigenvalues`.

Reference: "A Stick-Slip Interactions Model of Soft-Solid Frictional Contacts",
J. Dyn. Sys. Meas. Control, doi:10.1115/1.4042247.
"""

from .geometry import PatchGeometry, build_patch, load_polynomial
from .lbnm import network_force, run_lbnm
from .mlbnm import iub_arrays, iub_linear_eigenvalues, run_mlbnm, run_mlbnm_batch, stick_slip_state
from .params import PRESETS, BeamNetworkParams

__all__ = ["PatchGeometry", "build_patch", "load_polynomial", "BeamNetworkParams", "PRESETS", "run_lbnm",
           "network_force", "run_mlbnm", "run_mlbnm_batch", "iub_arrays", "iub_linear_eigenvalues",
           "stick_slip_state"]

from . import driver  # noqa: E402,F401  (registers the drivers of frictionlab.simulate)
