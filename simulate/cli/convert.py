"""``pokerjit convert``: hand histories (PHH or any site export pokerjit reads) written as a
PHH collection, Open Hand History JSON lines or PokerStars-format text."""

from __future__ import annotations

import argparse
import sys
from decimal import Decimal
from typing import Any

NAME = "convert"
HELP = "convert hand histories (PHH, site exports) to PHH, Open Hand History or PokerStars text"
#: The formats written, in the order --help lists them.
TARGETS = ("phh", "ohh", "pokerstars")
EXAMPLES = """Reads what 'pokerjit hand' reads (PHH, and every site's export it knows, told from
the content; folders recursively; - for standard input) and writes each hand that reads:
a .phhs collection (--to phh), Open Hand History JSON lines (--to ohh) or PokerStars-format
text (--to pokerstars). Each hand written reads back as the same hand (players, actions,
boards, winnings). A hand that cannot be read, or (for ohh and pokerstars, which print who
won what) whose pots cannot be settled from the file, is left out with one 'error:' line
on stderr; the rest are written.

exit status: 0 every hand written; 1 some hands left out; 2 nothing could be read, or bad
options.

examples:
  pokerjit convert tests/data/phh/vendor/phh-curated/dwan-ivey-2009.phh --to ohh
  pokerjit convert tests/data/sites/hhp/test/fixtures/holdem/pokerstars --to phh -o stars.phhs
  pokerjit convert hands.phhs --to ohh -o hands.ohh --json
  pokerjit convert my_ipoker_history/ --to pokerstars -o hands.txt
"""


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", metavar="PATH", nargs="+",
                   help="a hand-history file, a folder (read recursively) or - (standard input)")
    p.add_argument("--to", required=True, choices=TARGETS, help="the format to write")
    p.add_argument("-o", "--output", default="-", metavar="OUT",
                   help="the file to write (default -: standard output)")
    p.add_argument("--json", action="store_true",
                   help='print a summary on stdout: {"format", "output", "written", "errors"} '
                        "(with -o FILE)")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress lines on stderr")


def run(args: argparse.Namespace) -> int:
    from simulate.cli._util import UsageError, check_outputs, open_output
    from simulate.progress import progress
    from simulate.replay.hand_files import read_hands
    from simulate.run.stop import stop_on_signals

    check_outputs([("-o", args.output), ("--json", "-" if args.json else None)],
                  stdout_ok=True, inputs=args.file)
    written = errors = 0
    writer = _Writer(args.to)
    with stop_on_signals():  # SIGTERM, SIGHUP clean up as Ctrl-C does (temporary files)
        try:
            hands = read_hands(args.file, on_skip=_warn)
            first = next(hands, None)
        except (FileNotFoundError, ValueError) as exc:
            raise UsageError(str(exc)) from None
        if first is None:
            raise UsageError(f"no hands in {' '.join(args.file)}")
        import itertools

        with open_output(args.output, "-o", text=True) as out, \
                progress(None, "hands", "hands", quiet=args.quiet) as bar:
            for src, hand in itertools.chain([first], hands):
                bar.update(1)
                text = None
                try:
                    text = writer.text(hand)
                except ValueError as exc:  # PHHError, SiteError: the hand's own fault
                    why = str(exc)
                else:
                    why = ""
                if text is None:
                    errors += 1
                    sys.stderr.write(f"error: {src}: {why}\n")
                    continue
                out.write(text)
                written += 1
            if written == 0:
                raise UsageError(f"{' '.join(args.file)}: no hand could be converted")
    if args.json:
        import json

        print(json.dumps({"format": args.to, "output": args.output, "written": written,
                          "errors": errors}))
    elif not args.quiet:
        sys.stderr.write(f"{written:,} hands written to {args.output}"
                         + (f", {errors:,} left out\n" if errors else "\n"))
    return 1 if errors else 0


def _warn(line: str) -> None:
    sys.stderr.write(f"warning: {line}\n")


class _Writer:
    """One hand at a time in the target format: PHH sections ``[1]``, ``[2]``, ...; OHH one
    line each; PokerStars hands separated by blank lines."""

    def __init__(self, target: str) -> None:
        self.target, self.count = target, 0

    def text(self, hand: Any) -> str:
        from simulate.notation import PHHError, write

        if isinstance(hand, PHHError):
            raise hand
        if self.target == "phh":
            from simulate.notation.phh_write import hand_to_phh

            self.count += 1
            return ("\n" if self.count > 1 else "") + f"[{self.count}]\n" + hand_to_phh(hand)
        if hand.winnings is None:
            _settle(hand)
        from simulate.notation.site_build import transcribe

        transcribe(hand).check_chips()  # a hand whose sums disagree would not read back
        self.count += 1
        return write([hand], self.target) + ("\n\n" if self.target == "pokerstars" else "")


def _settle(hand: Any) -> None:
    """Give a PHH hand without recorded ``winnings`` the ones its replay settles (OHH and
    PokerStars text print who won what); ValueError when the replay cannot settle it."""
    from simulate.replay.hand_replay import replay

    d = replay(hand).to_dict()
    if d["error"]:
        raise ValueError(d["error"])
    if not d["outcome_known"] or any(w is None for w in d["winnings"]):
        raise ValueError("the showdown's cards are not in the file: who won is unknown")
    hand.winnings = [Decimal(str(w)) for w in d["winnings"]]
    if hand.rake is None and d["rake"]:
        hand.rake = Decimal(str(d["rake"]))
