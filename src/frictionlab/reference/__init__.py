"""Closed-form reference results (plain numpy), used by checks and tests."""
