"""Scenarios of Chen et al. (2019), the LuGre / beam-spring network model (``beam-network/*``)."""
