r"""The passivity (positive-realness) gain condition of the LuGre observer-based compensator.

Canudas de Wit, Olsson, Astrom & Lischinsky (1995), Section V: with the plant
:math:`m\ddot x + F = u`, the command :math:`u = -H(s)e + m\ddot x_r + \hat F`,
:math:`\hat F = \sigma_0\hat z + \sigma_1\dot{\hat z} + \sigma_2 v` and the observer
:math:`\dot{\hat z} = v - \sigma_0\frac{|v|}{g(v)}\hat z - k e` (:math:`e = x - x_r`), the
errors obey

.. math::
    e = -G(s)\,\tilde z, \quad G(s) = \frac{\sigma_1 s + \sigma_0}{m s^2 + H(s)}, \qquad
    \dot{\tilde z} = -\sigma_0\frac{|v|}{g(v)}\tilde z + k e .

The map :math:`e \mapsto \tilde z` is passive (storage :math:`\tilde z^2/2k`), so the loop
converges (:math:`e \to 0`, :math:`\tilde z` bounded) when :math:`G(s)` is strictly positive
real. For the controllers of :class:`~frictionlab.control.servo.ServoSystem`,
:math:`H(s) = K_v s + K_p + K_i/s`, this reads (our algebra, continuous time):

* PD (:math:`K_i = 0`): :math:`\operatorname{Re}G(j\omega) \propto \sigma_0(K_p - m\omega^2)
  + \sigma_1 K_v\omega^2`, positive for all :math:`\omega` iff :math:`K_p > 0` and
  :math:`\sigma_1 K_v > \sigma_0 m`;
* PID: :math:`G(s) = s(\sigma_1 s + \sigma_0)/(m s^3 + K_v s^2 + K_p s + K_i)`;
  :math:`\operatorname{Re}G(j\omega) \propto \omega^2[\sigma_0 K_p - \sigma_1 K_i +
  (\sigma_1 K_v - \sigma_0 m)\omega^2]`, so :math:`\sigma_0 K_p > \sigma_1 K_i`,
  :math:`\sigma_1 K_v > \sigma_0 m`, and the Hurwitz condition :math:`K_v K_p > m K_i`.
  The integrator puts a zero of G at s = 0, so G is positive real with
  :math:`\operatorname{Re}G(j\omega) > 0` for every :math:`\omega > 0` (strict except at 0).

The condition is stated for the continuous-time loop; the sampled implementation is close
to it when :math:`K_v T_s / m \ll 1` and :math:`\sigma_0 |v| T_s / g \ll 1`.
"""

from __future__ import annotations

import numpy as np

from ..core.errors import ParameterError

__all__ = ["lugre_observer_condition", "check_lugre_observer", "re_g"]


def re_g(omega: np.ndarray, sigma0: float, sigma1: float, mass: float, kp: float, ki: float, kv: float) -> np.ndarray:
    """:math:`\\operatorname{Re} G(j\\omega)` of the error loop (module docstring), vectorised."""
    s = 1j * np.asarray(omega, dtype=float)
    g = s * (sigma1 * s + sigma0) / (mass * s**3 + kv * s**2 + kp * s + ki)
    return np.real(g)


def lugre_observer_condition(sigma0: float, sigma1: float, mass: float, kp: float, ki: float,
                             kv: float) -> list[str]:
    """The violated parts of the gain condition (empty when it holds)."""
    bad = []
    if kp <= 0:
        bad.append(f"K_p = {kp:g} N/m must be > 0")
    if ki < 0:
        bad.append(f"K_i = {ki:g} N/(m s) must be >= 0")
    if not sigma1 * kv > sigma0 * mass:
        bad.append(f"sigma1 K_v = {sigma1 * kv:.4g} must exceed sigma0 m = {sigma0 * mass:.4g} "
                   f"(K_v > {sigma0 * mass / sigma1:.4g} N s/m)")
    if ki > 0:
        if not sigma0 * kp > sigma1 * ki:
            bad.append(f"sigma0 K_p = {sigma0 * kp:.4g} must exceed sigma1 K_i = {sigma1 * ki:.4g}")
        if not kv * kp > mass * ki:
            bad.append(f"Hurwitz: K_v K_p = {kv * kp:.4g} must exceed m K_i = {mass * ki:.4g}")
    return bad


def check_lugre_observer(sigma0: float, sigma1: float, mass: float, kp: float, ki: float, kv: float) -> None:
    """Raise :class:`ParameterError` when the passivity gain condition does not hold."""
    bad = lugre_observer_condition(sigma0, sigma1, mass, kp, ki, kv)
    if bad:
        raise ParameterError(
            "ServoSystem: the LuGre observer-based compensator needs G(s) = (sigma1 s + sigma0)/(m s^2 + H(s)) "
            "positive real (Canudas de Wit et al. 1995, Sec. V): " + "; ".join(bad)
            + "; raise the gains or set check_passivity=False to run outside the proven range")
