"""Rough-surface asperity-ensemble contact (Hulikal, Lapusta & Bhattacharya), part 1.

Modules::

    surface       Gaussian rough surfaces (FFT filtering), statistics, measured height maps, x-shifts.
    elasticity    Boussinesq interaction as an exact zero-padded FFT convolution; mean field.
    constitutive  Multi-rate viscoelastic recursions; viscoplastic power-law creep.
    solver        Polonsky-Keer constrained CG (load / displacement control), exact mean-field solve,
                  the paper's Algorithm 1: the entry points, over
    solver_compiled  the compiled PK iteration (numba kernels, cluster preconditioner, warm starts),
    solver_array  the array-backend PK iteration, displacement control, Algorithm 1,
    solver_common the solve result, the mean-field solve, acceptance checks.
    model         ``RoughContact`` parameters, ``RoughContactSim`` stepping, ``run_static`` ageing driver.
    backend       numpy / CuPy / PyTorch array backends.
    self_affine   Self-affine (Persson PSD) surfaces in physical units; rms height/slope, radial PSD.
    physical      ``solve_contact``: elastic contact in SI units (E, nu, pixel size) at a load or loads.
    clusters      Connected contact patches (4/8-connected, periodic wrap): a cached numba pass or its array twin.
"""

from ...core.lazy import lazy_exports

_EXPORTS = {
    **dict.fromkeys(("Viscoelastic", "Viscoplastic"), ".constitutive"),
    **dict.fromkeys(("BoussinesqFFT", "MeanField", "StepOperator"), ".elasticity"),
    **dict.fromkeys(("F_STAR", "STRESS_STAR", "TAU_S_BAR", "RoughContact", "RoughContactSim", "contact_clusters",
                     "force_pdf", "load_from_pressure", "run_static"), ".model"),
    **dict.fromkeys(("SolveResult", "alg1_solve", "meanfield_solve", "pk_solve", "pk_solve_disp"), ".solver"),
    **dict.fromkeys(("ContactSolution", "solve_contact"), ".physical"),
    **dict.fromkeys(("radial_psd", "rms_height", "rms_slope", "self_affine_surface"), ".self_affine"),
    **dict.fromkeys(("HeightMap", "load_height_map", "make_surface", "shift_x", "surface_stats"), ".surface"),
}
__all__ = list(_EXPORTS)

# Names are imported on first use (a contact solve needs neither xarray nor the drivers); the drivers
# of ``simulate`` register when the driver lookup imports ``.driver`` (declared in ``model.py``).
__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
