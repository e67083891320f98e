"""Chunks deleted: their postings and vectors deleted in the deleted rows' collections'
partitions only (rag.chunks_deleted names them).

Revision ID: 0019
Revises: 0018
Create Date: 2026-11-27
"""

from alembic import op

from app.db.sqlfiles import read_sql

revision = "0019"
down_revision = "0018"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # one statement (a function body): applied whole
    op.get_bind().connection.driver_connection.execute(
        read_sql("schema/0019_deletes_by_collection.sql")
    )


def downgrade() -> None:
    raise NotImplementedError("schema downgrades are not supported; restore a backup")
