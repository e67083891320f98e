"""Goals: named reference vectors per space.

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-22
"""

from alembic import op

from app.db.sqlfiles import read_sql

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.get_bind().connection.driver_connection.execute(read_sql("schema/0006_goals.sql"))


def downgrade() -> None:
    raise NotImplementedError("schema downgrades are not supported; restore a backup")
