"""Fixtures for the web pages: the parlor app on a fresh data directory and an HTTP client."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("fastapi")

from fastapi import FastAPI
from fastapi.testclient import TestClient

from hkmahjong.server import pages


@pytest.fixture
def app(tmp_path: Path) -> FastAPI:
    app = FastAPI()
    app.include_router(pages.router)
    return app


@pytest.fixture
def client(app: FastAPI) -> Iterator[TestClient]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        with TestClient(app) as c:
            yield c
