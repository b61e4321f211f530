"""schemathesis against the published OpenAPI (issue 14 "Proof"): every generated request to every
operation gets no server error and an answer that conforms to the schema."""

from __future__ import annotations

import tempfile
from pathlib import Path

import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import positive_data_acceptance
from tests.server.conftest import cheap_argon2

from hkmahjong.server.app import create_app
from hkmahjong.server.settings import Settings

_DATA = Path(tempfile.mkdtemp(prefix="hkmj-schema-"))
APP = create_app(
    Settings(data_dir=_DATA, secret="schema-secret-" + "x" * 20), password_hash=cheap_argon2()
)
# The calculator API and the account probe (the table routes are tested by their own suite).
schema = schemathesis.openapi.from_asgi("/openapi.json", APP).include(
    path_regex=r"^/(healthz|api/(score|shanten|me))$"
)


@schema.parametrize()
@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
def test_every_operation_conforms_and_never_fails(case: schemathesis.Case) -> None:
    # Tile text and preset names are checked beyond what JSON Schema can say (a string "0000" is
    # schema-valid but not a hand): a schema-valid request may get 422, every other check holds.
    case.call_and_validate(excluded_checks=[positive_data_acceptance])
