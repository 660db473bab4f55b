"""The warm-up of ``pokerjit hand``'s workers: one sample hand through each replay path.

:func:`warm_hands` is the ``warm`` the hand replay passes to the executor
(:func:`simulate.run.executor`), run before it forks its workers; :mod:`simulate.warmup`
(``pokerjit warmup``) runs it too, as the serial part of its hand-history step.
"""

from __future__ import annotations

#: A plain heads-up No-Limit Hold'em hand in PHH, played to a showdown.
SAMPLE_HAND = (
    b"variant = 'NT'\nantes = [0, 0]\nblinds_or_straddles = [1, 2]\nmin_bet = 2\n"
    b"starting_stacks = [200, 200]\nactions = ['d dh p1 AhKh', 'd dh p2 7c7d', "
    b"'p2 cbr 6', 'p1 cc', 'd db Ks8h2c', 'p1 cc', 'p2 cc', 'd db 4d', 'p1 cc', "
    b"'p2 cc', 'd db 9s', 'p1 cc', 'p2 cc', 'p1 sm AhKh', 'p2 sm 7c7d']\n")


def warm_hands(kinds: tuple[str, ...] = ("hand",)) -> None:
    """What a worker of ``pokerjit hand`` runs per chunk, on one thread (a process may fork
    after it): :data:`SAMPLE_HAND` through the compiled many-hands replay
    (:mod:`simulate.replay.fast_replay`; ``compiled``: a cold cache's few hands would take the
    per-hand road alone), and a variant of it (a shown card the fast path
    leaves alone) through the per-hand path. ``kinds`` (the executor's warm kinds) is not
    read: there is one kind of hand-history work."""
    from simulate.replay.fast_replay import replay_items

    replay_items([("warm-up", 1, SAMPLE_HAND),
                  ("warm-up", 1, SAMPLE_HAND.replace(b"sm AhKh", b"sm AhKh#"))], compiled=True)
