"""Leagues (聯賽): the leagues table (settings and state as JSON) and its decision log.

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-08
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def _at(name: str, *, nullable: bool = False) -> sa.Column[object]:
    return sa.Column(name, sa.DateTime(timezone=True), nullable=nullable)


def upgrade() -> None:
    """Create ``leagues`` and ``league_decisions``."""
    op.create_table(
        "leagues",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=64), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("config", sa.JSON(), nullable=False),
        sa.Column("state", sa.JSON(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        _at("created_at"),
        _at("updated_at"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_leagues")),
    )
    op.create_index("ix_leagues_name_lower", "leagues", [sa.text("lower(name)")], unique=True)
    op.create_index(op.f("ix_leagues_status"), "leagues", ["status"])
    op.create_table(
        "league_decisions",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("league_id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=32), nullable=False),
        sa.Column("reason", sa.Text(), nullable=False),
        _at("at"),
        sa.ForeignKeyConstraint(
            ["league_id"], ["leagues.id"], name=op.f("fk_league_decisions_league_id_leagues")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_league_decisions")),
    )
    op.create_index(op.f("ix_league_decisions_league_id"), "league_decisions", ["league_id"])


def downgrade() -> None:
    """Drop the league tables."""
    op.drop_table("league_decisions")
    op.drop_table("leagues")
