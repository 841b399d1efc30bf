"""Scenarios of the classic laws (Coulomb, Stribeck, Dahl, LuGre, GMS, rate-and-state)."""
