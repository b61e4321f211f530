"""History, statistics and ratings: hand_details, hand_results, hand_fans, match_results, ratings.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-10
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def _at(name: str, *, nullable: bool = False) -> sa.Column[object]:
    return sa.Column(name, sa.DateTime(timezone=True), nullable=nullable)


def _table_fk(table: str) -> sa.ForeignKeyConstraint:
    return sa.ForeignKeyConstraint(
        ["table_id"], ["parlor_tables.id"], name=op.f(f"fk_{table}_table_id_parlor_tables")
    )


def _user_fk(table: str) -> sa.ForeignKeyConstraint:
    return sa.ForeignKeyConstraint(
        ["user_id"], ["users.id"], name=op.f(f"fk_{table}_user_id_users")
    )


def upgrade() -> None:
    """Create the history tables and their indexes."""
    op.create_table(
        "hand_details",
        sa.Column("table_id", sa.Integer(), nullable=False),
        sa.Column("hand", sa.Integer(), nullable=False),
        sa.Column("detail", sa.JSON(), nullable=False),
        _at("at"),
        _table_fk("hand_details"),
        sa.PrimaryKeyConstraint("table_id", "hand", name=op.f("pk_hand_details")),
    )
    op.create_table(
        "hand_results",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("table_id", sa.Integer(), nullable=False),
        sa.Column("hand", sa.Integer(), nullable=False),
        sa.Column("player", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=True),
        sa.Column("bot_level", sa.String(length=16), nullable=True),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("family", sa.String(length=32), nullable=False),
        sa.Column("digest", sa.String(length=128), nullable=False),
        sa.Column("seat", sa.String(length=1), nullable=False),
        sa.Column("dealer", sa.Boolean(), nullable=False),
        sa.Column("won", sa.Boolean(), nullable=False),
        sa.Column("self_drawn", sa.Boolean(), nullable=False),
        sa.Column("fed_by", sa.Integer(), nullable=True),
        sa.Column("dealt_in", sa.Boolean(), nullable=False),
        sa.Column("fed_to", sa.String(length=8), nullable=False),
        sa.Column("false_win", sa.Boolean(), nullable=False),
        sa.Column("drawn", sa.Boolean(), nullable=False),
        sa.Column("fan", sa.Integer(), nullable=True),
        sa.Column("is_limit", sa.Boolean(), nullable=False),
        sa.Column("delta", sa.Float(), nullable=False),
        sa.Column("liability_paid", sa.Integer(), nullable=False),
        _at("at"),
        _table_fk("hand_results"),
        _user_fk("hand_results"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_hand_results")),
    )
    op.create_index(
        "uq_hand_results_seat", "hand_results", ["table_id", "hand", "player"], unique=True
    )
    op.create_index("ix_hand_results_user", "hand_results", ["user_id", "id"])
    op.create_table(
        "hand_fans",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("table_id", sa.Integer(), nullable=False),
        sa.Column("hand", sa.Integer(), nullable=False),
        sa.Column("player", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=True),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("digest", sa.String(length=128), nullable=False),
        sa.Column("fan_id", sa.String(length=40), nullable=False),
        sa.Column("count", sa.Integer(), nullable=False),
        sa.Column("fan", sa.Integer(), nullable=False),
        _table_fk("hand_fans"),
        _user_fk("hand_fans"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_hand_fans")),
    )
    op.create_index(
        "uq_hand_fans_win", "hand_fans", ["table_id", "hand", "player", "fan_id"], unique=True
    )
    op.create_index("ix_hand_fans_user", "hand_fans", ["user_id", "fan_id"])
    op.create_table(
        "match_results",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("table_id", sa.Integer(), nullable=False),
        sa.Column("player", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=True),
        sa.Column("bot_level", sa.String(length=16), nullable=True),
        sa.Column("name", sa.String(length=64), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("family", sa.String(length=32), nullable=False),
        sa.Column("digest", sa.String(length=128), nullable=False),
        sa.Column("length", sa.String(length=16), nullable=False),
        sa.Column("hands", sa.Integer(), nullable=False),
        sa.Column("total", sa.Float(), nullable=False),
        sa.Column("place", sa.Integer(), nullable=False),
        sa.Column("jade", sa.BigInteger(), nullable=True),
        sa.Column("mu_before", sa.Float(), nullable=True),
        sa.Column("sigma_before", sa.Float(), nullable=True),
        sa.Column("mu_after", sa.Float(), nullable=True),
        sa.Column("sigma_after", sa.Float(), nullable=True),
        _at("at"),
        _table_fk("match_results"),
        _user_fk("match_results"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_match_results")),
    )
    op.create_index("uq_match_results_seat", "match_results", ["table_id", "player"], unique=True)
    op.create_index("ix_match_results_user", "match_results", ["user_id", "id"])
    op.create_index("ix_match_results_family_user", "match_results", ["family", "user_id"])
    op.create_table(
        "ratings",
        sa.Column("subject", sa.String(length=64), nullable=False),
        sa.Column("family", sa.String(length=32), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=True),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("ordinal", sa.Float(), nullable=False),
        sa.Column("matches", sa.Integer(), nullable=False),
        _at("updated_at"),
        _user_fk("ratings"),
        sa.PrimaryKeyConstraint("subject", "family", name=op.f("pk_ratings")),
    )
    op.create_index(op.f("ix_ratings_user_id"), "ratings", ["user_id"])
    op.create_index("ix_ratings_family_ordinal", "ratings", ["family", "ordinal"])


def downgrade() -> None:
    """Drop the history tables."""
    for name in ("ratings", "match_results", "hand_fans", "hand_results", "hand_details"):
        op.drop_table(name)
