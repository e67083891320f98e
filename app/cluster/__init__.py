"""A local Citus cluster for development and tests: Citus built once into a cached copy
of the embedded PostgreSQL install (install.py), a coordinator and N workers started from
it (nodes.py), joined, migrated and stopped (local.py); ``ragsearch cluster`` (cli.py)."""
