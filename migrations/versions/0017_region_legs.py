"""Indexes on (collection_id, signal) and (collection_id, created_at): region legs.

Revision ID: 0017
Revises: 0016
Create Date: 2026-11-26
"""

from alembic import op

from app.db.sqlfiles import apply_schema_file

revision = "0017"
down_revision = "0016"
branch_labels = None
depends_on = None


def upgrade() -> None:
    apply_schema_file(op.get_bind().connection.driver_connection, "0017_region_legs.sql")


def downgrade() -> None:
    raise NotImplementedError("schema downgrades are not supported; restore a backup")
