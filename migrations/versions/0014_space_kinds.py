"""Kinds of embedding space: dense, sparse, multivector.

Revision ID: 0014
Revises: 0013
Create Date: 2026-11-25
"""

from alembic import op

from app.db.sqlfiles import read_sql

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.get_bind().connection.driver_connection.execute(read_sql("schema/0014_space_kinds.sql"))


def downgrade() -> None:
    raise NotImplementedError("schema downgrades are not supported; restore a backup")
