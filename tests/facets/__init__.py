"""Facet counts: the endpoint, its budget and its fields."""
