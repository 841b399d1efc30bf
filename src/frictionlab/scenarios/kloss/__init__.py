"""Scenarios reproducing Martinez Molina (2025), "An electromagnetic model for friction forces"."""
