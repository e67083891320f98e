"""The search page in a real browser."""
