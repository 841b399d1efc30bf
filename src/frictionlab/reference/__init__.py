"""Closed-form and independent reference results, used by checks and tests (plain numpy; the
large-system mean-field sliding kernel of :mod:`.meanfield_rough` is compiled with numba)."""
