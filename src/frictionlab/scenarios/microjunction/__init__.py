"""Scenarios of the microjunction asperity-creep model (Goedecke 2013, Appendix A)."""
