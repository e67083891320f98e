"""Core schema: documents, chunks, embedding spaces.

Revision ID: 0001
Revises:
Create Date: 2026-11-22
"""

from alembic import op

from app.db.sqlfiles import read_sql

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    driver = op.get_bind().connection.driver_connection
    driver.execute(read_sql("schema/0001_core.sql"))
    driver.execute(read_sql("schema/0001_meta.sql"))


def downgrade() -> None:
    driver = op.get_bind().connection.driver_connection
    driver.execute("DROP SCHEMA api CASCADE; DROP SCHEMA rag CASCADE;")
