"""Bulk loads: how far each file has been stored, for ingest --resume.

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-22
"""

from alembic import op

from app.db.sqlfiles import read_sql

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.get_bind().connection.driver_connection.execute(read_sql("schema/0010_bulk_loads.sql"))


def downgrade() -> None:
    raise NotImplementedError("schema downgrades are not supported; restore a backup")
