"""Reviews (覆盤) summed up per hand and player, for the accuracy chart: ``reviews``.

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create ``reviews`` and its index by user and time."""
    op.create_table(
        "reviews",
        sa.Column("table_id", sa.Integer(), nullable=False),
        sa.Column("hand", sa.Integer(), nullable=False),
        sa.Column("player", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("budget", sa.Integer(), nullable=False),
        sa.Column("reviewed", sa.Integer(), nullable=False),
        sa.Column("good", sa.Integer(), nullable=False),
        sa.Column("loss", sa.Float(), nullable=False),
        sa.Column("loss_se", sa.Float(), nullable=True),
        sa.Column("played_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("reviewed_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["table_id"], ["parlor_tables.id"], name=op.f("fk_reviews_table_id_parlor_tables")
        ),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], name=op.f("fk_reviews_user_id_users")),
        sa.PrimaryKeyConstraint("table_id", "hand", "player", name=op.f("pk_reviews")),
    )
    op.create_index("ix_reviews_user", "reviews", ["user_id", "played_at"])


def downgrade() -> None:
    """Drop it."""
    op.drop_index("ix_reviews_user", table_name="reviews")
    op.drop_table("reviews")
