"""The rate laws' kernels as plain C (C99 + ``<math.h>``), for code that runs outside Python.

Each entry of :data:`C_KERNELS` is the C twin of one law's numba kernels (``_rates_kernel``,
``_friction_kernel``), over the same flat parameter vector ``p``
(:meth:`~frictionlab.core.base.AbstractLaw.param_vector`) and the same argument order::

    static void   law_rates(const double *x, double v, double fn, const double *p, double *dx);
    static double law_friction(const double *x, double v, double fn, const double *p);

``helpers`` holds the law's own static functions (named with the law's prefix), ``rates`` and
``friction`` the bodies of the two functions. :mod:`frictionlab.export.csource` assembles them
into a stand-alone source file and the FMU; ``tests/unit/test_export_csource.py`` compiles
every entry and checks it against the numba kernels at random states and inputs, so an edit
of one form without the other fails there.

``layout`` names what each entry of ``p`` holds, for the laws whose ``param_vector`` is not
``kernel_params`` in order: a field name (a number, or a bool option as 0/1), ``"field=value"``
(1 when the option ``field`` equals ``value``, else 0), ``"len:field"`` (the length of a
tuple field) or ``"field[]"`` (a tuple field, one entry per element). This module imports
nothing: it is data.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["CKernel", "C_KERNELS", "REFUSED"]


@dataclass(frozen=True)
class CKernel:
    """The C text of one law: helper functions, and the bodies of ``rates`` and ``friction``."""

    rates: str
    friction: str
    helpers: str = ""
    layout: tuple[str, ...] = ()


_STRIBECK_G = """
/* LuGre Stribeck curve g(v) = fc + (fs - fc) exp(-|v/vs|^delta), times fn with normal scaling */
static double lugre_g(double v, double fn, const double *p)
{
    double x = v / p[5];
    double e = (p[6] == 2.0) ? x * x : pow(fabs(x), p[6]);
    double g = p[3] + (p[4] - p[3]) * exp(-e);
    if (p[7] > 0.5) g *= fn;
    return g;
}
"""

_KLOSS = """
/* Kloss formula, eqs. (8) + (11) of Martinez Molina (2025) */
static double kloss_f(double v, double f_max, double v_max0, double zeta)
{
    double vm = v_max0 + 0.5 * zeta * fabs(v);
    return 2.0 * f_max * vm * v / (v * v + vm * vm);
}
"""

_RSF_VMIN = "#define FL_VMIN 1e-300\n"

C_KERNELS: dict[str, CKernel] = {
    # Canudas de Wit et al. (1995), eqs. (2)-(4)
    "lugre": CKernel(
        helpers=_STRIBECK_G,
        rates="""
    double g = lugre_g(v, fn, p);
    if (g <= 0.0) { dx[0] = -x[0] * 1e12; return; }
    dx[0] = v - p[0] * fabs(v) * x[0] / g;
""",
        friction="""
    double g = lugre_g(v, fn, p);
    double z = x[0];
    double zdot = (g <= 0.0) ? -z * 1e12 : v - p[0] * fabs(v) * z / g;
    return p[0] * z + p[1] * zdot + p[2] * v;
"""),
    # Al-Bender, Lampaert & Swevers (2005), eqs. 4-5, with the regularised switch of frictionlab.laws.gms
    "gms": CKernel(
        layout=("fc", "fs", "vs", "delta", "c", "sigma2", "normal_scaling", "len:k", "k[]", "alpha[]", "switch_width",
                "sigma1[]<element_damping"),  # the damping in force (the default when sigma1 is empty)
        helpers="""
/* signed Stribeck curve s(v) (+ for v = 0) */
static double gms_s(double v, double fn, const double *p)
{
    double g = p[0] + (p[1] - p[0]) * exp(-pow(fabs(v) / p[2], p[3]));
    if (p[6] > 0.5) g *= fn;
    return v < 0.0 ? -g : g;
}
/* dF_i/dt of element i at force fi (v != 0) */
static double gms_rate(int i, double fi, double v, double s, double sg, int n, const double *p)
{
    double k = p[8 + i], a = p[8 + n + i], eps = p[8 + 2 * n];
    if (s == 0.0) return -k * fabs(v) * fi / (eps * a * fmax(fmax(p[0], p[1]), 1.0));
    double z = fi / (a * s);
    double u = (z - 1.0) / eps + 1.0;
    double w = u <= 0.0 ? 0.0 : (u >= 1.0 ? 1.0 : u * u * (3.0 - 2.0 * u));
    return (1.0 - w) * k * v + w * sg * p[4] * (a - fi / s);
}
""",
        rates="""
    int n = (int)p[7];
    int i;
    if (v == 0.0) { for (i = 0; i < n; i++) dx[i] = 0.0; return; }
    double s = gms_s(v, fn, p);
    double sg = v > 0.0 ? 1.0 : -1.0;
    for (i = 0; i < n; i++) dx[i] = gms_rate(i, x[i], v, s, sg, n, p);
""",
        friction="""
    int n = (int)p[7];
    double f = p[5] * v;
    for (int i = 0; i < n; i++) f += x[i];
    if (v != 0.0) { /* micro-damping sigma1_i dz_i/dt = (sigma1_i / k_i) dF_i/dt */
        double s = gms_s(v, fn, p);
        double sg = v > 0.0 ? 1.0 : -1.0;
        for (int i = 0; i < n; i++) {
            double d = p[8 + 2 * n + 1 + i];
            if (d > 0.0) f += d / p[8 + i] * gms_rate(i, x[i], v, s, sg, n, p);
        }
    }
    return f;
"""),
    # Dahl (1968)
    "dahl": CKernel(
        rates="""
    double fc = p[3] > 0.5 ? p[1] * fn : p[1];
    double s;
    if (fc <= 0.0) { dx[0] = -x[0] * 1e12; return; }
    if (v > 0.0) s = 1.0 - x[0] / fc;
    else if (v < 0.0) s = 1.0 + x[0] / fc;
    else { dx[0] = 0.0; return; }
    double mag = pow(fabs(s), p[2]);
    if (s < 0.0) mag = -mag;
    dx[0] = p[0] * mag * v;
""",
        friction="""
    (void)v; (void)fn; (void)p;
    return x[0];
"""),
    # Dieterich (1979) aging law, Ruina (1983) slip law; asinh form of Rice & Ben-Zion (1996)
    "rate_state": CKernel(
        layout=("mu0", "a", "b", "dc", "v0", "law=slip", "form=arcsinh"),
        helpers=_RSF_VMIN + """
static double rs_mu(double theta, double v, const double *p)
{
    double th = fmax(theta, FL_VMIN);
    double av = fabs(v);
    if (p[6] > 0.5) {
        double psi = p[0] + p[2] * log(p[4] * th / p[3]);
        return p[1] * asinh(av / (2.0 * p[4]) * exp(psi / p[1]));
    }
    return p[0] + p[1] * log(fmax(av, FL_VMIN) / p[4]) + p[2] * log(p[4] * th / p[3]);
}
""",
        rates="""
    (void)fn;
    double th = fmax(x[0], FL_VMIN);
    double omega = fabs(v) * th / p[3];
    dx[0] = (p[5] > 0.5) ? -omega * log(fmax(omega, FL_VMIN)) : 1.0 - omega;
""",
        friction="""
    double mu = rs_mu(x[0], v, p);
    if (v < 0.0) mu = -mu;
    return mu * fn;
"""),
    # Ruina (1983), Sec. 4: two state variables
    "rate_state2": CKernel(
        layout=("mu0", "a", "b1", "dc1", "b2", "dc2", "v0", "law=slip"),
        helpers=_RSF_VMIN,
        rates="""
    (void)fn;
    for (int i = 0; i < 2; i++) {
        double th = fmax(x[i], FL_VMIN);
        double omega = fabs(v) * th / p[3 + 2 * i];
        dx[i] = (p[7] > 0.5) ? -omega * log(fmax(omega, FL_VMIN)) : 1.0 - omega;
    }
""",
        friction="""
    double mu = p[0] + p[1] * log(fmax(fabs(v), FL_VMIN) / p[6])
        + p[2] * log(p[6] * fmax(x[0], FL_VMIN) / p[3]) + p[4] * log(p[6] * fmax(x[1], FL_VMIN) / p[5]);
    if (v < 0.0) mu = -mu;
    return mu * fn;
"""),
    # Martinez Molina (2025), eq. 25 in continuous time
    "kloss_dynamic": CKernel(
        helpers=_KLOSS,
        rates="""
    double fss = kloss_f(v, p[0], p[1], p[2]);
    if (p[3] > 0.5) fss *= fn;
    dx[0] = (fss - x[0]) / p[4];
""",
        friction="""
    (void)v; (void)fn; (void)p;
    return x[0];
"""),
    # static curves: no state
    "kloss": CKernel(
        helpers=_KLOSS,
        rates="    (void)x; (void)v; (void)fn; (void)p; (void)dx;\n",
        friction="""
    (void)x;
    double f = kloss_f(v, p[0], p[1], p[2]);
    return p[3] > 0.5 ? f * fn : f;
"""),
    "coulomb": CKernel(
        rates="    (void)x; (void)v; (void)fn; (void)p; (void)dx;\n",
        friction="""
    (void)x;
    if (p[1] > 0.0) return p[0] * fn * tanh(v / p[1]);
    if (v > 0.0) return p[0] * fn;
    if (v < 0.0) return -p[0] * fn;
    return 0.0;
"""),
    # Olsson et al. (1998), eq. 4, plus a viscous power law
    "stribeck": CKernel(
        rates="    (void)x; (void)v; (void)fn; (void)p; (void)dx;\n",
        friction="""
    (void)x;
    double av = fabs(v);
    double g = p[0] + (p[1] - p[0]) * exp(-pow(av / p[2], p[3]));
    double sgn, visc;
    if (p[7] > 0.5) g *= fn;
    if (p[6] > 0.0) sgn = tanh(v / p[6]);
    else if (v > 0.0) sgn = 1.0;
    else if (v < 0.0) sgn = -1.0;
    else sgn = 0.0;
    visc = p[4] * pow(av, p[5]);
    if (v < 0.0) visc = -visc;
    return g * sgn + visc;
"""),
}

#: registered rate laws without a C form, and why
REFUSED: dict[str, str] = {
    "subloading_rate": ("the subloading rate form (Ozaki et al. 2020) is the cross-check twin of the stepped "
                        "return-mapping model 'subloading', stress-based, with derived entries (1/kappa, 1/xi) in its "
                        "parameter vector; its C form is not written"),
}
