"""Fixtures for the staff screens: a browser-like client that reads English.

The project's default language is Russian; asserting English texts through an English
client keeps these tests true whatever the Russian catalogue says.
"""

import pytest
from django.test import Client


@pytest.fixture
def client_en():
    return Client(headers={"accept-language": "en"})


@pytest.fixture
def make_client_en():
    """More than one signed-in person in one test: one client each."""

    def make() -> Client:
        return Client(headers={"accept-language": "en"})

    return make
