"""Keyword relevance: tsvector per chunk, BM25 corpus statistics.

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-22
"""

from alembic import op

from app.db.sqlfiles import read_sql

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.get_bind().connection.driver_connection.execute(read_sql("schema/0007_lexical.sql"))


def downgrade() -> None:
    raise NotImplementedError("schema downgrades are not supported; restore a backup")
