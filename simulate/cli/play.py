"""``pokerjit play``: many hands played out by the engine, each seat's result."""

from __future__ import annotations

import argparse
import re
from collections.abc import Iterator
from typing import Any

from simulate.cli._util import (
    UsageError,
    add_game,
    add_json,
    add_quiet,
    emit_json,
    load_note,
    plural,
    table,
)
from simulate.games import whole_number

NAME = "play"
HELP = "simulate many hands played by the rules: net chips and bb/100 per seat"
EXAMPLES = """Every hand starts from the same stacks; the button moves one seat a hand. Hand i
is dealt from its own random stream under the seed (the real procedure, burns
included), so a seed gives the same result on any number of threads.

policies (one for every seat, or one per seat separated by commas):
  call      always check or call
  random    15% fold (check when free), 65% check/call, 20% raise (half min, half all in)
  allin     raise all in (the maximum) before the flop, then check or call
  top N%    raise the top N% of starting hands before the flop, else check or fold; after
            the flop bet two pair or better, call with a pair, else check or fold

examples:
  pokerjit play --players 6 --stacks 400 --blinds 1/2 --hands 1000000
  pokerjit play --players 2 --hands 1000000 --policy random,call --seed 7 --threads 2
  pokerjit play --players 6 --policy 'top 15%,call,call,call,call,random' --json
  pokerjit play --players 3 --betting pot-limit --game omaha --ante 1 --hands 100000
  pokerjit play --players 2 --hands 1000 --phh hands.phhs
  pokerjit play --players 6 --game short_deck --ante 1 --button-blind 2 --policy random
"""


def add_arguments(p: argparse.ArgumentParser) -> None:
    from simulate.games import BETTINGS, DISCARD_AFTER, MAX_PLAYERS, MIN_PLAYERS

    p.add_argument("--players", type=int, default=2, metavar="N",
                   help=f"seats, {MIN_PLAYERS}..{MAX_PLAYERS} (default 2)")
    p.add_argument("--stacks", default=None, metavar="S",
                   help="every seat's starting stack in chips (default 200 big blinds), or one "
                        "per seat separated by commas")
    p.add_argument("--blinds", default=None, metavar="SB/BB",
                   help="blinds (default 1/2; not with --button-blind)")
    p.add_argument("--hands", type=int, default=100_000, metavar="H",
                   help="hands to play (default 100000)")
    p.add_argument("--ante", type=int, default=0, metavar="A", help="ante posted by every seat")
    p.add_argument("--bb-ante", action="store_true",
                   help="the big blind posts the ante alone (a big-blind ante)")
    p.add_argument("--button-blind", type=int, default=None, metavar="B",
                   help="short deck's forced bet: the button posts B (after its ante) in "
                        "place of --blinds, the seat after it acts first")
    p.add_argument("--straddle", default="", metavar="X[,X...]",
                   help="straddles posted by the seats after the big blind")
    p.add_argument("--betting", default="no-limit", choices=BETTINGS, help="betting structure")
    add_game(p)
    p.add_argument("--discard-after", default=None, choices=tuple(DISCARD_AFTER),
                   help="pineapple games: the betting round after which every live seat "
                        "discards (default preflop for pineapple, flop for crazy_pineapple)")
    p.add_argument("--policy", default="call", metavar="P[,P...]",
                   help="call, random, allin or 'top N%%': one for all seats or one per seat")
    p.add_argument("--seed", type=int, default=None, help="random seed (default: a fresh one)")
    p.add_argument("--threads", type=int, default=None, metavar="T",
                   help="threads playing blocks of hands at once (default: one per core; "
                        "the same hands on any number)")
    p.add_argument("--button", type=int, default=0, metavar="I",
                   help="the first hand's button seat (default 0)")
    p.add_argument("--phh", default=None, metavar="FILE",
                   help="also write hands as a .phhs collection (the first --phh-hands)")
    p.add_argument("--phh-hands", type=int, default=None, metavar="N",
                   help="how many hands --phh writes (default 1000; the first N)")
    add_quiet(p)
    add_json(p)


def _ints(text: str, option: str) -> list[int]:
    """Whole numbers of chips separated by commas or blanks: ASCII digits only, no empty
    entry (``100,`` is a typing slip, not one stack)."""
    parts = re.split(r"\s*,\s*|\s+", text.strip())
    if not all(x.isascii() and x.isdigit() for x in parts):
        raise UsageError(f"{option} must be whole numbers of chips separated by commas, "
                         f"got '{text}'")
    return [whole_number(x, option) for x in parts]


def _counted(items: Iterator[Any], bar: Any) -> Iterator[Any]:
    """``items``, each counted on the progress ``bar`` once it has been used."""
    for x in items:
        yield x
        bar.update(1)


def run(args: argparse.Namespace) -> int:
    from simulate.cli._util import check_output_path
    from simulate.engine import Rules, play
    from simulate.games import MAX_PLAYERS, MIN_PLAYERS

    n = args.players
    if not MIN_PLAYERS <= n <= MAX_PLAYERS:
        raise UsageError(f"--players must be {MIN_PLAYERS}..{MAX_PLAYERS}, got {n}")
    if args.button_blind is not None and args.blinds is not None:  # any --blinds, 1/2 too
        raise UsageError("--button-blind replaces --blinds: give one of them")
    blinds = "1/2" if args.blinds is None else args.blinds
    m = re.fullmatch(r"\s*([0-9]+)\s*/\s*([0-9]+)\s*", blinds)
    if not m:
        raise UsageError(f"--blinds must be SB/BB in chips, e.g. 1/2, got '{blinds}'")
    sb, bb = whole_number(m.group(1), "--blinds"), whole_number(m.group(2), "--blinds")
    if args.button_blind is not None:
        sb, bb = 0, args.button_blind
    if args.hands < 1:
        raise UsageError(f"--hands must be positive, got {args.hands}")
    if args.bb_ante and not args.ante:
        raise UsageError("--bb-ante needs --ante A: the ante the big blind posts for the table")
    stacks = [200 * bb] * n if args.stacks is None else _ints(args.stacks, "--stacks")
    if len(stacks) == 1:
        stacks = stacks * n
    if len(stacks) != n:
        raise UsageError(f"--stacks gives {len(stacks)} stacks for {n} players")
    straddles = tuple(_ints(args.straddle, "--straddle")) if args.straddle.strip() else ()
    policies = [x.strip() for x in args.policy.split(",")]
    if len(policies) == 1:
        policies = policies * n
    if len(policies) != n:
        raise UsageError(f"--policy gives {len(policies)} policies for {n} players")
    if args.phh_hands is not None and not args.phh:
        raise UsageError("--phh-hands needs --phh FILE (the collection it sizes)")
    if args.phh:
        check_output_path(args.phh, "--phh")
        if args.phh_hands is None:
            args.phh_hands = 1000
        if args.phh_hands < 1:
            raise UsageError(f"--phh-hands must be positive, got {args.phh_hands}")
    rules = Rules(game=args.game, betting=args.betting, blinds=(sb, bb), ante=args.ante,
                  bb_ante=args.bb_ante, straddles=straddles, discard_after=args.discard_after,
                  button_blind=args.button_blind is not None)
    if args.phh:  # a file PHH cannot write is refused before the work, not after
        from simulate.notation.phh_write import variant_code

        try:
            variant_code(rules.game.name, rules.betting)
        except ValueError as exc:
            raise UsageError(f"--phh: {exc}") from None
    r = play(rules, stacks, args.hands, policy=policies, seed=args.seed, threads=args.threads,
             button=args.button, progress=not args.quiet)
    if args.phh:
        from simulate.cli._util import open_output
        from simulate.engine.self_play import replay_hands
        from simulate.notation.phh_write import write_phhs
        from simulate.progress import progress

        k = min(args.phh_hands, args.hands)
        # streamed into a temporary file renamed into place at the end (never the whole
        # collection in memory), with progress: a large --phh-hands takes a while
        with progress(k, "writing --phh", "hands", quiet=args.quiet) as bar, \
                open_output(args.phh, "--phh", text=True) as fh:
            write_phhs(_counted(replay_hands(rules, stacks, k, policy=policies, seed=r.seed,
                                             button=args.button), bar), fh)
        r.extra["phh"] = {"path": args.phh, "hands": k}
    if args.json:
        emit_json(r.to_dict())
        return 0
    forced = f"button blind {bb}" if rules.button_blind else f"blinds {sb}/{bb}"
    print(f"{rules.game.name} {rules.betting}, {forced}"
          + (f", ante {rules.ante}" + (" (big blind)" if rules.bb_ante else "")
             if rules.ante else "")
          + f", {n} players, {plural(r.hands, 'hand')}, seed {r.seed}, "
          f"{r.elapsed_s:.2f} s ({r.hands_per_s:,.0f} hands/s){load_note()}")
    rows = [[str(i), r.policies[i], str(stacks[i]), str(r.net[i]), f"{r.bb_per_100[i]:.2f}",
             f"{r.std_error[i]:.2f}"] for i in range(n)]
    print(table(rows, ["seat", "policy", "stack", "net", "bb/100", "std err"], "llrrrr"))
    if args.phh:
        k = r.extra["phh"]["hands"]
        print(f"wrote the first {plural(k, 'hand')} to {args.phh}" if k > 1
              else f"wrote the first hand to {args.phh}")
    return 0
