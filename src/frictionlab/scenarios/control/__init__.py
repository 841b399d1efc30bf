"""Closed-loop scenarios: friction compensation, observers and online estimation (frictionlab.control)."""
