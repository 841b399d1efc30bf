"""Scenarios of Hulikal, Lapusta & Bhattacharya (rough-surface asperity-ensemble contact), part 1."""
