"""The database migrations (Alembic) of `ttr serve`, applied at start by `ttr.server.migrate.upgrade`."""
