"""The kernel's one way to a screen: ``send_on_commit(topic, event)`` moves the topic's
sequence in the transaction, renders each topic once after the commit, and publishes; a
failing renderer never undoes the commit and the screens still learn the sequence moved."""

import pytest
from django.db import transaction

from feed import bus, send
from feed.sequences import topic_next, topic_seqs

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def published(monkeypatch):
    calls = []
    monkeypatch.setattr(bus, "publish", calls.append)
    return calls


@pytest.fixture
def renders(monkeypatch, settings):
    """A renderer for the ``duty`` kind that records its calls."""
    calls = []

    def renderer(topic, seq, events):
        calls.append((topic, seq, events))
        return {"duty:en": f"<p>{seq}</p>"}, True

    monkeypatch.setattr(send, "_renderers", {"duty": renderer, "user": None})
    return calls


def test_a_topic_is_rendered_once_per_transaction_with_every_event(published, renders):
    with transaction.atomic():
        first = send.send_on_commit("duty", {"tables": [1]})
        second = send.send_on_commit("duty", {"tables": [2]})
        assert renders == []
    assert second == first  # one number per committed change of a topic
    assert renders == [("duty", second, [{"tables": [1]}, {"tables": [2]}])]
    (message,) = published[0]
    assert (message.seq, message.fragments, message.delta) == (
        second,
        {"duty:en": f"<p>{second}</p>"},
        True,
    )
    assert topic_seqs(["duty"]) == {"duty": second}


def test_a_control_topic_is_neither_sequenced_nor_rendered(published, renders):
    with transaction.atomic():
        assert send.send_on_commit("user.7", {"kind": "access"}) is None
    assert renders == []
    assert [(m.topic, m.seq, m.event) for m in published[0]] == [
        ("user.7", None, {"kind": "access"})
    ]
    assert topic_seqs(["user.7"]) == {"user.7": 0}


def test_a_failing_renderer_never_undoes_the_commit(published, monkeypatch):
    def broken(topic, seq, events):
        raise ConnectionError("the template is broken")

    monkeypatch.setattr(send, "_renderers", {"duty": broken})
    with transaction.atomic():
        seq = send.send_on_commit("duty")
    assert topic_seqs(["duty"]) == {"duty": seq}  # committed
    (message,) = published[0]
    assert (message.seq, message.fragments) == (seq, {})  # each screen fetches its state


def test_an_unknown_kind_is_refused_before_anything_moves(published):
    with pytest.raises(ValueError):
        send.send_on_commit("nonsense.1")
    assert published == [] and topic_seqs(["nonsense.1"]) == {"nonsense.1": 0}


def test_sequences_start_at_one_and_follow_the_commits():
    assert topic_next("table.999") == 1
    assert topic_next("table.999") == 2
    assert topic_seqs(["table.999", "table.1000"]) == {"table.999": 2, "table.1000": 0}
