"""Integrators: compiled fixed-step loops, Newmark-beta, solve_ivp, stepping loop."""
