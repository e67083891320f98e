"""Storing documents: request models, validation into rows, one transaction of COPYs, and
bulk loads from files."""
