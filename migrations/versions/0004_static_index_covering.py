"""The (created_at, signal) GiST index carries id, created_at and signal.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-22
"""

from alembic import op

from app.db.sqlfiles import read_sql

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.get_bind().connection.driver_connection.execute(
        read_sql("schema/0004_static_index_covering.sql")
    )


def downgrade() -> None:
    raise NotImplementedError("schema downgrades are not supported; restore a backup")
