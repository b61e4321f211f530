"""Initial schema: users, sessions, the jade ledger, parlor tables, seats, logs and audit.

Revision ID: 0001
Revises:
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def _at(name: str, *, nullable: bool = False) -> sa.Column[object]:
    return sa.Column(name, sa.DateTime(timezone=True), nullable=nullable)


def upgrade() -> None:
    """Create every table of the parlor's first schema."""
    op.create_table(
        "users",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=64), nullable=False),
        sa.Column("password_hash", sa.String(length=255), nullable=True),
        sa.Column("is_guest", sa.Boolean(), nullable=False),
        sa.Column("is_admin", sa.Boolean(), nullable=False),
        sa.Column("lang", sa.String(length=16), nullable=False),
        _at("created_at"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_users")),
        sa.UniqueConstraint("name", name=op.f("uq_users_name")),
    )
    op.create_index("ix_users_name_lower", "users", [sa.text("lower(name)")], unique=True)
    op.create_table(
        "sessions",
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        _at("created_at"),
        _at("expires_at"),
        _at("revoked_at", nullable=True),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name=op.f("fk_sessions_user_id_users"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("token_hash", name=op.f("pk_sessions")),
    )
    op.create_index(op.f("ix_sessions_user_id"), "sessions", ["user_id"])
    op.create_table(
        "accounts",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("key", sa.String(length=128), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_accounts")),
        sa.UniqueConstraint("key", name=op.f("uq_accounts_key")),
    )
    op.create_table(
        "ledger_txns",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("idem_key", sa.String(length=200), nullable=False),
        sa.Column("kind", sa.String(length=32), nullable=False),
        sa.Column("memo", sa.Text(), nullable=False),
        _at("created_at"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_ledger_txns")),
        sa.UniqueConstraint("idem_key", name=op.f("uq_ledger_txns_idem_key")),
    )
    op.create_table(
        "ledger_rows",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("txn_id", sa.Integer(), nullable=False),
        sa.Column("account_id", sa.Integer(), nullable=False),
        sa.Column("amount", sa.BigInteger(), nullable=False),
        sa.ForeignKeyConstraint(
            ["account_id"], ["accounts.id"], name=op.f("fk_ledger_rows_account_id_accounts")
        ),
        sa.ForeignKeyConstraint(
            ["txn_id"], ["ledger_txns.id"], name=op.f("fk_ledger_rows_txn_id_ledger_txns")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_ledger_rows")),
    )
    op.create_index(op.f("ix_ledger_rows_account_id"), "ledger_rows", ["account_id"])
    op.create_index(op.f("ix_ledger_rows_txn_id"), "ledger_rows", ["txn_id"])
    op.create_table(
        "parlor_tables",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("public_id", sa.String(length=32), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("config", sa.JSON(), nullable=False),
        sa.Column("ruleset_digest", sa.String(length=128), nullable=False),
        sa.Column("creator_id", sa.Integer(), nullable=True),
        sa.Column("private", sa.Boolean(), nullable=False),
        sa.Column("invite_token", sa.String(length=64), nullable=True),
        sa.Column("match_seed", sa.String(length=128), nullable=False),
        _at("created_at"),
        _at("updated_at"),
        sa.ForeignKeyConstraint(
            ["creator_id"], ["users.id"], name=op.f("fk_parlor_tables_creator_id_users")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_parlor_tables")),
        sa.UniqueConstraint("public_id", name=op.f("uq_parlor_tables_public_id")),
    )
    op.create_index(op.f("ix_parlor_tables_status"), "parlor_tables", ["status"])
    op.create_table(
        "table_seats",
        sa.Column("table_id", sa.Integer(), nullable=False),
        sa.Column("player", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=True),
        sa.Column("bot_level", sa.String(length=16), nullable=True),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.ForeignKeyConstraint(
            ["table_id"], ["parlor_tables.id"], name=op.f("fk_table_seats_table_id_parlor_tables")
        ),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name=op.f("fk_table_seats_user_id_users")
        ),
        sa.PrimaryKeyConstraint("table_id", "player", name=op.f("pk_table_seats")),
    )
    op.create_table(
        "table_log",
        sa.Column("table_id", sa.Integer(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("line", sa.Text(), nullable=False),
        _at("created_at"),
        sa.ForeignKeyConstraint(
            ["table_id"], ["parlor_tables.id"], name=op.f("fk_table_log_table_id_parlor_tables")
        ),
        sa.PrimaryKeyConstraint("table_id", "seq", name=op.f("pk_table_log")),
    )
    op.create_table(
        "table_audit",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("table_id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=32), nullable=False),
        sa.Column("reason", sa.Text(), nullable=False),
        _at("at"),
        sa.ForeignKeyConstraint(
            ["table_id"], ["parlor_tables.id"], name=op.f("fk_table_audit_table_id_parlor_tables")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_table_audit")),
    )
    op.create_index(op.f("ix_table_audit_table_id"), "table_audit", ["table_id"])


def downgrade() -> None:
    """Drop every table of the first schema."""
    for name in (
        "table_audit",
        "table_log",
        "table_seats",
        "parlor_tables",
        "ledger_rows",
        "ledger_txns",
        "accounts",
        "sessions",
        "users",
    ):
        op.drop_table(name)
