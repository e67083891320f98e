"""Documents in: embedders per space, chunk positions and hashes, the embedding cache, jobs.

Revision ID: 0012
Revises: 0011
Create Date: 2026-11-25
"""

from alembic import op

from app.db.sqlfiles import read_sql

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.get_bind().connection.driver_connection.execute(read_sql("schema/0012_documents_in.sql"))


def downgrade() -> None:
    raise NotImplementedError("schema downgrades are not supported; restore a backup")
