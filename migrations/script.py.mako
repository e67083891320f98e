"""${message}

Revision ID: ${up_revision}
Revises: ${down_revision | comma,n}
Create Date: ${create_date}
"""

from alembic import op

from app.db.sqlfiles import read_sql

revision = ${repr(up_revision)}
down_revision = ${repr(down_revision)}
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.get_bind().connection.driver_connection.execute(read_sql("schema/NNNN_name.sql"))


def downgrade() -> None:
    raise NotImplementedError("schema downgrades are not supported; restore a backup")
