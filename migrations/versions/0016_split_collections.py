"""Split collections: a collection stored as parts, each on its own worker.

Revision ID: 0016
Revises: 0015
Create Date: 2026-11-26
"""

from alembic import op

from app.db.sqlfiles import ddl_statements, read_sql

revision = "0016"
down_revision = "0015"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # (one statement at a time: on a Citus cluster the workers refuse several in one)
    connection = op.get_bind().connection.driver_connection
    for statement in ddl_statements(read_sql("schema/0016_split_collections.sql")):
        connection.execute(statement)


def downgrade() -> None:
    raise NotImplementedError("schema downgrades are not supported; restore a backup")
