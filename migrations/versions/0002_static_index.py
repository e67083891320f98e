"""A GiST index over (created_at, signal) for the threshold search's region.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-22
"""

from alembic import op

from app.db.sqlfiles import read_sql

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.get_bind().connection.driver_connection.execute(read_sql("schema/0002_static_index.sql"))


def downgrade() -> None:
    driver = op.get_bind().connection.driver_connection
    driver.execute("DROP INDEX rag.chunks_static_idx; DROP FUNCTION rag.epoch_days(timestamptz);")
