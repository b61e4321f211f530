"""History: a covering index of a user's hand rows for the statistics (their sums and the
rulesets played are read from the index alone).

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-10
"""

from __future__ import annotations

from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None

COLUMNS = [
    "user_id",
    "digest",
    "kind",
    "family",
    "won",
    "self_drawn",
    "dealt_in",
    "drawn",
    "false_win",
    "fan",
    "delta",
    "liability_paid",
]


def upgrade() -> None:
    """Create ``ix_hand_results_user_stats``."""
    op.create_index("ix_hand_results_user_stats", "hand_results", COLUMNS)


def downgrade() -> None:
    """Drop it."""
    op.drop_index("ix_hand_results_user_stats", table_name="hand_results")
