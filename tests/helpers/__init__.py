"""Test helpers: an independent float64 central-difference oracle and checks built on it."""
