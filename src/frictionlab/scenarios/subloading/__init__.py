"""Scenarios of Ozaki, Matsuura & Maegawa (2020): the subloading-friction model's figures."""
