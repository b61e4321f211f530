"""Several server processes (docs/deploy.md): the processes' heartbeats and the tables' leases.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create ``cluster_nodes`` and ``table_leases``."""
    op.create_table(
        "cluster_nodes",
        sa.Column("owner", sa.String(length=64), nullable=False),
        sa.Column("address", sa.String(length=200), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("owner", name=op.f("pk_cluster_nodes")),
    )
    op.create_table(
        "table_leases",
        sa.Column("table_id", sa.Integer(), nullable=False),
        sa.Column("owner", sa.String(length=64), nullable=False),
        sa.Column("epoch", sa.BigInteger(), nullable=False),
        sa.Column("acquired_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["table_id"], ["parlor_tables.id"], name=op.f("fk_table_leases_table_id_parlor_tables")
        ),
        sa.PrimaryKeyConstraint("table_id", name=op.f("pk_table_leases")),
    )
    op.create_index(op.f("ix_table_leases_owner"), "table_leases", ["owner"])


def downgrade() -> None:
    """Drop them."""
    op.drop_table("table_leases")
    op.drop_table("cluster_nodes")
