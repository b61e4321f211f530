"""The Alembic environment and revisions of the parlor's schema (package data)."""
