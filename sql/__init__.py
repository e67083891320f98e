"""SQL files of ragsearch, installed as the package app.sql (see app/db/sqlfiles.py)."""
