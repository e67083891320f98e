"""Sparse spaces on a Citus cluster: the term counts kept beside the shards.

Revision ID: 0015
Revises: 0014
Create Date: 2026-11-25
"""

from alembic import op

from app.db.sqlfiles import read_sql

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.get_bind().connection.driver_connection.execute(read_sql("schema/0015_sparse_on_citus.sql"))


def downgrade() -> None:
    raise NotImplementedError("schema downgrades are not supported; restore a backup")
