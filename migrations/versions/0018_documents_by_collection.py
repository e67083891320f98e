"""The index of documents by collection on (collection_id, id): a chunk's foreign key
check finds its document whichever index it was planned with.

Revision ID: 0018
Revises: 0017
Create Date: 2026-11-26
"""

from alembic import op

from app.db.sqlfiles import apply_schema_file

revision = "0018"
down_revision = "0017"
branch_labels = None
depends_on = None


def upgrade() -> None:
    connection = op.get_bind().connection.driver_connection
    apply_schema_file(connection, "0018_documents_by_collection.sql")


def downgrade() -> None:
    raise NotImplementedError("schema downgrades are not supported; restore a backup")
