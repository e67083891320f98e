"""Alembic environment: one transaction for the revisions and the function files (and on
a Citus cluster, the distribution of new tables and the routing of the searches)."""

from alembic import context
from sqlalchemy import create_engine, pool, text

from app.db import distribution
from app.db.migrate import MIGRATION_LOCK_ID, apply_functions

url = context.config.get_main_option("sqlalchemy.url")
settings = context.config.attributes["settings"]
engine = create_engine(url, poolclass=pool.NullPool)

with engine.connect() as connection:
    context.configure(connection=connection, target_metadata=None)
    with context.begin_transaction():
        driver = connection.connection.driver_connection
        citus = distribution.uses_citus(driver, settings)
        if citus:
            distribution.begin(driver)
        connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK_ID})
        context.run_migrations()
        apply_functions(driver, distributed=citus)
        if citus:
            distribution.distribute_schema(driver, settings)
            distribution.install_routing(driver)
            distribution.sequential_by_default(driver)
