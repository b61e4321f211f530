"""Names as people mean them (issue 29): each user's caseless key (unique) and TR39 skeleton
(indexed), computed in Python (:mod:`hkmahjong.server.names`); the database's ``lower(name)``
index goes (SQLite's ``lower()`` folds ASCII only).

Existing users are backfilled. Names that were distinct before but share a key now (``Émile`` and
``émile``, ``STRASSE`` and ``Straße``) collide: the oldest account keeps its name, and each later
one is renamed ``NAME-ID`` (its id makes it free), each logged as a warning naming both accounts,
so the operator can tell the players (docs/security.md, *Names*).

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-20
"""

from __future__ import annotations

import logging

import sqlalchemy as sa
from alembic import op

from hkmahjong.server.names import name_key, name_skeleton

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None

log = logging.getLogger("hkmahjong.server.store.migrations")

USERS = sa.table(
    "users",
    sa.column("id", sa.Integer),
    sa.column("name", sa.String),
    sa.column("name_key", sa.String),
    sa.column("name_skeleton", sa.String),
)


def backfill(bind: sa.Connection) -> list[tuple[int, str, str, int]]:
    """Set every user's key and skeleton; rename the later of two users whose names share a key.
    The renames: (user id, old name, new name, the id of the account that kept the name)."""
    rows = bind.execute(sa.select(USERS.c.id, USERS.c.name).order_by(USERS.c.id)).all()
    owner: dict[str, int] = {}
    for ident, name in rows:
        owner.setdefault(name_key(name), ident)
    used = set(owner)
    renamed = []
    for ident, name in rows:
        key = name_key(name)
        new = name
        if owner[key] != ident:
            new, n = f"{name}-{ident}", 2
            while name_key(new) in used:
                new, n = f"{name}-{ident}-{n}", n + 1
            key = name_key(new)
            used.add(key)
            renamed.append((ident, name, new, owner[name_key(name)]))
            log.warning(
                "user %d %r is renamed %r: its name is user %d's once case and width are "
                "ignored (names are unique that way now); tell the player",
                ident,
                name,
                new,
                owner[name_key(name)],
            )
        bind.execute(
            sa.update(USERS)
            .where(USERS.c.id == ident)
            .values(name=new, name_key=key, name_skeleton=name_skeleton(key))
        )
    return renamed


def upgrade() -> None:
    """Add ``name_key`` (unique) and ``name_skeleton`` (indexed), backfilled; drop the
    ``lower(name)`` index."""
    op.drop_index("ix_users_name_lower", table_name="users")
    with op.batch_alter_table("users") as batch:
        batch.add_column(sa.Column("name_key", sa.String(length=64), nullable=True))
        batch.add_column(sa.Column("name_skeleton", sa.String(length=255), nullable=True))
    backfill(op.get_bind())
    with op.batch_alter_table("users") as batch:
        batch.alter_column("name_key", existing_type=sa.String(length=64), nullable=False)
        batch.alter_column("name_skeleton", existing_type=sa.String(length=255), nullable=False)
        batch.create_unique_constraint(op.f("uq_users_name_key"), ["name_key"])
        batch.create_index(op.f("ix_users_name_skeleton"), ["name_skeleton"])


def downgrade() -> None:
    """Drop them; the ``lower(name)`` index again (renamed users keep their new names)."""
    with op.batch_alter_table("users") as batch:
        batch.drop_index(op.f("ix_users_name_skeleton"))
        batch.drop_constraint(op.f("uq_users_name_key"), type_="unique")
        batch.drop_column("name_skeleton")
        batch.drop_column("name_key")
    op.create_index("ix_users_name_lower", "users", [sa.text("lower(name)")], unique=True)
