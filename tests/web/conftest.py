"""Fixtures for the web pages: the parlor app on a fresh data directory and an HTTP client."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from hkmahjong.server.app import create_app
from hkmahjong.server.settings import Settings


@pytest.fixture
def app(tmp_path: Path) -> FastAPI:
    return create_app(Settings(data_dir=tmp_path / "data", secret="test-secret-" + "x" * 20))


@pytest.fixture
def client(app: FastAPI) -> Iterator[TestClient]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        with TestClient(app, base_url="http://127.0.0.1") as c:
            yield c
