"""Jobs read by collection: collections take turns at the job workers, and each has a
bounded queue.

Revision ID: 0020
Revises: 0019
Create Date: 2026-11-27
"""

from alembic import op

from app.db.sqlfiles import read_sql

revision = "0020"
down_revision = "0019"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.get_bind().connection.driver_connection.execute(read_sql("schema/0020_job_turns.sql"))


def downgrade() -> None:
    raise NotImplementedError("schema downgrades are not supported; restore a backup")
