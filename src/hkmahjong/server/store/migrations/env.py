"""Alembic's environment: runs the revisions on the engine :class:`~hkmahjong.server.store.Store`
passes in (``config.attributes["engine"]``), online only."""

from __future__ import annotations

from alembic import context
from sqlalchemy import Engine

from hkmahjong.server.store.models import Base


def run_migrations() -> None:
    """Run the pending revisions in one transaction on the store's engine."""
    engine = context.config.attributes.get("engine")
    if not isinstance(engine, Engine):
        raise RuntimeError(
            "run the parlor's migrations through hkmahjong.server.store.Store.migrate()"
        )
    with engine.connect() as connection:
        context.configure(
            connection=connection,
            target_metadata=Base.metadata,
            render_as_batch=engine.dialect.name == "sqlite",
            compare_type=True,
        )
        with context.begin_transaction():
            context.run_migrations()
        connection.commit()


if getattr(context, "config", None) is not None:  # loaded by Alembic (not by a doctest collector)
    run_migrations()
