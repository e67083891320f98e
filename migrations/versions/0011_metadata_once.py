"""Metadata stored once per document, merged when read.

Revision ID: 0011
Revises: 0010
Create Date: 2026-11-25
"""

from alembic import op

from app.db.sqlfiles import read_sql

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.get_bind().connection.driver_connection.execute(read_sql("schema/0011_metadata_once.sql"))


def downgrade() -> None:
    raise NotImplementedError("schema downgrades are not supported; restore a backup")
