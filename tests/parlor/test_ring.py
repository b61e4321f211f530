"""The reconnect ring: the last messages of a stream, given back byte for byte or not at all."""

from __future__ import annotations

import random

from hkmahjong.parlor.ring import Ring


def test_ring_keeps_the_last_messages_in_order() -> None:
    ring = Ring(3, chunk=1)
    texts = [f'{{"t":"event","v":{v},"zh":"碰{v}"}}' for v in range(1, 8)]
    for v, text in enumerate(texts, start=1):
        ring.append(v, text)
    assert len(ring) == 3 and ring.last == 7
    assert ring.after(4) == texts[4:]
    assert ring.after(6) == texts[6:]
    assert ring.after(7) == []
    assert ring.after(3) is None  # message 4 is no longer kept
    assert ring.after(8) is None  # ahead of the stream


def test_ring_starts_empty_and_forgets_across_a_gap() -> None:
    ring = Ring(4)
    assert ring.after(0) == [] and ring.after(1) is None
    ring.append(1, "a")
    ring.append(2, "b")
    ring.append(5, "e")  # a gap: what came before cannot be given back whole
    assert ring.after(4) == ["e"]
    assert ring.after(2) is None


def test_compressed_chunks_give_back_every_kept_message_exactly() -> None:
    rng = random.Random(7)
    for chunk in (1, 2, 5, 16):
        ring = Ring(64, chunk=chunk)
        texts = []
        for v in range(1, 500):
            text = f'{{"t":"event","v":{v},"x":"{"碰槓" * rng.randrange(0, 40)}"}}'
            texts.append(text)
            ring.append(v, text)
            assert min(v, 64) <= len(ring) <= 64 + 2 * (chunk - 1)
            assert ring.after(v - min(v, 64)) == texts[-min(v, 64) :]  # the last 64, always
            kept = ring.after(v - len(ring))
            assert kept == texts[v - len(ring) :]
            assert ring.after(v - len(ring) - 1) is None
