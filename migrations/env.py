"""Alembic environment: one transaction for the revisions and the function files."""

from alembic import context
from sqlalchemy import create_engine, pool, text

from app.db.migrate import MIGRATION_LOCK_ID, apply_functions

url = context.config.get_main_option("sqlalchemy.url")
engine = create_engine(url, poolclass=pool.NullPool)

with engine.connect() as connection:
    context.configure(connection=connection, target_metadata=None)
    with context.begin_transaction():
        connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK_ID})
        context.run_migrations()
        apply_functions(connection.connection.driver_connection)
