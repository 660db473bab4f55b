"""Synthetic no-limit hold'em hand histories for tests and benchmarks of PHH at scale.

:func:`synthetic_hands` yields legal PHH hands (text, one per hand) quickly and without the
engine: 6-max (or ``players``) no-limit hold'em, blinds 1/2, 200-chip stacks, every hole
card known, nobody all in. Before the flop each seat from under the gun folds or calls
the big blind and the big blind checks; on each later street the first live seat bets 4
or checks and everyone else calls or folds (or checks behind); a showdown shows every
live hand. The same ``seed`` gives the same hands.

:func:`allin_hands` yields hands that are all in before the flop instead (2 to 6 players,
different stacks, so side pots), for the all-in EV paths of the replay.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from evaluator.cards import cards_str

__all__ = ["allin_hands", "synthetic_hands", "write_synthetic_phhs"]


def _one(rng: random.Random, n: int, number: int) -> str:
    deck = rng.sample(range(52), 2 * n + 5)
    holes = [cards_str(deck[2 * s: 2 * s + 2]) for s in range(n)]
    board = cards_str(deck[2 * n:])
    acts = [f"d dh p{s + 1} {holes[s]}" for s in range(n)]
    live = [True] * n
    # preflop: p3..pN, then p1 (small blind) and p2 (big blind)
    callers = 0
    for s in [*range(2, n), 0]:
        if rng.random() < 0.55:
            acts.append(f"p{s + 1} f")
            live[s] = False
        else:
            acts.append(f"p{s + 1} cc")
            callers += 1
    if callers == 0:
        return _doc(n, acts, number)  # everyone folded to the big blind
    acts.append("p2 cc")
    cuts = [(0, 3), (3, 4), (4, 5)]
    for a, b in cuts:
        acts.append(f"d db {board[2 * a: 2 * b]}")
        order = [s for s in range(n) if live[s]]
        if rng.random() < 0.3:
            first, rest = order[0], order[1:]
            acts.append(f"p{first + 1} cbr 4")
            called = False
            for s in rest:
                if rng.random() < 0.5:
                    acts.append(f"p{s + 1} f")
                    live[s] = False
                else:
                    acts.append(f"p{s + 1} cc")
                    called = True
            if not called:
                return _doc(n, acts, number)
        else:
            acts.extend(f"p{s + 1} cc" for s in order)
    for s in range(n):
        if live[s]:
            acts.append(f"p{s + 1} sm {holes[s]}")
    return _doc(n, acts, number)


def _doc(n: int, acts: list[str], number: int) -> str:
    blinds = [1, 2] + [0] * (n - 2)
    return (f"variant = 'NT'\nante_trimming_status = false\nantes = {[0] * n}\n"
            f"blinds_or_straddles = {blinds}\nmin_bet = 2\nstarting_stacks = {[200] * n}\n"
            f"actions = {acts!r}\nhand = {number}\n"
            f"players = {[f'player{s + 1}' for s in range(n)]!r}\n")


def synthetic_hands(count: int, *, players: int = 6, seed: int = 0) -> Iterator[str]:
    """``count`` PHH hand texts (see the module docstring)."""
    if not 3 <= players <= 10:
        raise ValueError(f"players must be 3..10, got {players}")
    rng = random.Random(seed)
    for i in range(count):
        yield _one(rng, players, i + 1)


def write_synthetic_phhs(path: str, count: int, *, players: int = 6, seed: int = 0) -> None:
    """Write :func:`synthetic_hands` as one ``.phhs`` collection at ``path``."""
    from simulate.notation.phh_write import write_phhs

    write_phhs(synthetic_hands(count, players=players, seed=seed), path)


def allin_hands(count: int = 120, seed: int = 12) -> list[str]:
    """``count`` PHH no-limit hold'em hands, 2 to 6 players, all in before the flop with
    different stacks (side pots), every hole card known, the board run out and shown.
    The biggest stack to act first shoves, the others fold or call (for less)."""
    rng = random.Random(seed)
    out: list[str] = []
    while len(out) < count:
        n = rng.randint(2, 6)
        deck = rng.sample(range(52), 2 * n + 5)
        holes = [cards_str(deck[2 * s: 2 * s + 2]) for s in range(n)]
        board = cards_str(deck[2 * n:])
        stacks = rng.sample(range(40, 400), n)
        order = [*range(2, n), 0, 1] if n > 2 else [1, 0]
        fold = [rng.random() < 0.25 for _ in range(n)]
        fold[order[-1]] = False
        first = next(s for s in order if not fold[s])
        top = max(range(n), key=lambda s: stacks[s])
        stacks[first], stacks[top] = stacks[top], stacks[first]
        acts = [f"d dh p{s + 1} {holes[s]}" for s in range(n)]
        for s in order:
            acts.append(f"p{s + 1} f" if fold[s] else
                        f"p{s + 1} cbr {stacks[s]}" if s == first else f"p{s + 1} cc")
        if sum(not f for f in fold) < 2:
            continue
        acts += [f"d db {board[:6]}", f"d db {board[6:8]}", f"d db {board[8:]}"]
        acts += [f"p{s + 1} sm {holes[s]}" for s in range(n) if not fold[s]]
        out.append(f"variant = 'NT'\nante_trimming_status = false\nantes = {[0] * n}\n"
                   f"blinds_or_straddles = {[1, 2] + [0] * (n - 2)}\nmin_bet = 2\n"
                   f"starting_stacks = {stacks}\nactions = {acts!r}\nhand = {len(out) + 1}\n"
                   f"players = {[f'p{s + 1}' for s in range(n)]!r}\n")
    return out
