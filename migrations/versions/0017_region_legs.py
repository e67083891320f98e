"""Indexes on (collection_id, signal) and (collection_id, created_at): region legs.

Revision ID: 0017
Revises: 0016
Create Date: 2026-11-26
"""

from alembic import op

from app.db.sqlfiles import ddl_statements, read_sql

revision = "0017"
down_revision = "0016"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # (one statement at a time: on a Citus cluster the workers refuse several in one)
    connection = op.get_bind().connection.driver_connection
    for statement in ddl_statements(read_sql("schema/0017_region_legs.sql")):
        connection.execute(statement)


def downgrade() -> None:
    raise NotImplementedError("schema downgrades are not supported; restore a backup")
