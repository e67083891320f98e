"""Database access: the embedded server, migrations, the connection pool, named SQL."""
