"""Jobs that ended while queued keep no queued item nor their input.

Revision ID: 0021
Revises: 0020
Create Date: 2026-11-28
"""

from alembic import op

from app.db.sqlfiles import apply_schema_file

revision = "0021"
down_revision = "0020"
branch_labels = None
depends_on = None


def upgrade() -> None:
    apply_schema_file(op.get_bind().connection.driver_connection, "0021_finished_jobs_input.sql")


def downgrade() -> None:
    raise NotImplementedError("schema downgrades are not supported; restore a backup")
