"""A player's settings (``/api/me/settings``): one JSON object per registered user.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create ``user_prefs``."""
    op.create_table(
        "user_prefs",
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("prefs", sa.JSON(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["user_id"],
            ["users.id"],
            name=op.f("fk_user_prefs_user_id_users"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("user_id", name=op.f("pk_user_prefs")),
    )


def downgrade() -> None:
    """Drop it."""
    op.drop_table("user_prefs")
