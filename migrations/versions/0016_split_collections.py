"""Split collections: a collection stored as parts, each on its own worker.

Revision ID: 0016
Revises: 0015
Create Date: 2026-11-26
"""

from alembic import op

from app.db.sqlfiles import apply_schema_file

revision = "0016"
down_revision = "0015"
branch_labels = None
depends_on = None


def upgrade() -> None:
    apply_schema_file(op.get_bind().connection.driver_connection, "0016_split_collections.sql")


def downgrade() -> None:
    raise NotImplementedError("schema downgrades are not supported; restore a backup")
