"""Scenarios of the beam-network paper (doi:10.1115/1.4042247), the LuGre / beam-spring network model (``beam-network/*``)."""
