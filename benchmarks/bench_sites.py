"""Site hand histories read and replayed: ``pokerjit hand --totals-only`` on a PokerStars-format
file against the same hands as PHH, and each site family's samples against pokerkit's readers.

Targets (issue 38): a PokerStars-format file written by ``convert`` from ``play`` read and
replayed at >= 20,000 hands/s on one core and >= 1.6x that on two workers; per site family,
hands/s read and replayed next to pokerkit's readers (``pokerkit.notation``'s
``PokerStarsParser``, ``FullTiltPokerParser``, ``PartyPokerParser``, ``IPokerNetworkParser``,
``OngameNetworkParser``) on the same files, as ratios.

``pytest benchmarks/bench_sites.py`` runs a smoke test (a few hands, both formats, equal
totals). ``python benchmarks/bench_sites.py [--hands N] [--workers 1 2] [--repeat N]
[--json]`` (default 1,000,000 hands; ``--quick``: 5,000) writes the file with ``play
--phh`` and ``convert --to pokerstars`` and times ``pokerjit hand FILE --totals-only`` in a
fresh process per run (start-up included), PokerStars text and PHH alternating
(:func:`simulate.bench.script_main`); then each family of ``tests/data/sites`` in this
process (read, build and replay: :func:`simulate.replay.hand_files.read_hands`'s path), and
pokerkit reading and replaying (its state iterated to the end) the files of the families it
reads.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import io
import warnings
from collections import defaultdict
from decimal import Decimal
from pathlib import Path
from typing import Any

from bench_phh import run_cli  # the same fresh-process run of `pokerjit hand`

from simulate.bench import Comparison, Side, script_main

SITES = Path(__file__).resolve().parent.parent / "tests" / "data" / "sites"
#: Site families pokerkit reads, and its parser for each.
POKERKIT_PARSERS = {"pokerstars": "PokerStarsParser", "fulltilt": "FullTiltPokerParser",
                    "partypoker": "PartyPokerParser", "ipoker": "IPokerNetworkParser",
                    "ongame": "OngameNetworkParser"}


def make_files(tmp: Path, hands: int, seed: int = 1) -> tuple[Path, Path]:
    """``(PHH collection, the same hands as PokerStars text)``: ``play`` 6-max, then
    ``convert --to pokerstars``."""
    from simulate.cli import main

    phh, stars = tmp / f"play_{hands}.phhs", tmp / f"play_{hands}.txt"
    for argv in (["play", "--players", "6", "--hands", str(hands), "--seed", str(seed),
                  "--phh", str(phh), "--phh-hands", str(hands), "-q"],
                 ["convert", str(phh), "--to", "pokerstars", "-o", str(stars), "-q"]):
        with contextlib.redirect_stdout(io.StringIO()):  # play's table of results
            rc = main(argv)
        if rc != 0:
            raise RuntimeError(f"pokerjit {' '.join(argv)}: exit status {rc}")
    return phh, stars


def family_files() -> dict[str, list[Path]]:
    """The sample files of ``tests/data/sites`` by the family that reads them."""
    from simulate.notation.site_text import decode
    from simulate.notation.sites import DETECT_CHARS, detect_site

    out: dict[str, list[Path]] = defaultdict(list)
    for f in sorted(p for p in SITES.rglob("*") if p.is_file()):
        with open(f, "rb") as fh:
            fmt = detect_site(decode(fh.read(4 * DETECT_CHARS)))
        if fmt is not None:
            out[fmt.name].append(f)
    return dict(out)


def ours(files: list[Path]) -> tuple[int, int]:
    """Read, build and replay ``files`` (the ``pokerjit hand`` path, in this process):
    ``(hands, validated)``."""
    from simulate.replay.hand_files import analyze

    n = v = 0
    for d in analyze(files):
        n += 1
        v += bool(d.get("validated"))
    return n, v


def _value(s: str) -> Decimal:
    return Decimal(s.replace(",", "").lstrip("$€£¥"))


def theirs(parser: str, files: list[Path]) -> int:
    """pokerkit reading ``files`` with ``parser`` and replaying each hand it reads (its
    states iterated to the end): the hands it replays."""
    from pokerkit import notation

    from simulate.notation.site_text import decode

    n = 0
    # pokerkit prints a traceback for each hand it cannot read: kept off the table
    with warnings.catch_warnings(), contextlib.redirect_stderr(io.StringIO()):
        warnings.simplefilter("ignore")
        for f in files:
            try:
                hands = getattr(notation, parser)()(decode(f.read_bytes()), parse_value=_value,
                                                    error_status=False)
                for hh in hands:
                    try:
                        for _ in hh:
                            pass
                    except Exception:  # noqa: BLE001 - a hand pokerkit cannot replay
                        continue
                    n += 1
            except Exception:  # noqa: BLE001 - a file pokerkit cannot read
                continue
    return n


# ----------------------------------------------------------------------------- pytest
def test_site_file_smoke(benchmark, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """A few hands written as PokerStars text replay to the PHH totals, on 1 worker."""
    from simulate.replay.hand_files import analyze
    from simulate.replay.totals import Totals

    phh, stars = make_files(tmp_path, 30)

    def totals(path: Path) -> Totals:
        t = Totals()
        for d in analyze(path):
            t.add(d)
        return t

    got = benchmark.pedantic(totals, args=(stars,), rounds=1, iterations=1)
    want = totals(phh)
    assert got.hands == want.hands == 30 and got.errors == 0
    assert got.validated == got.hands


# ----------------------------------------------------------------------------- script
def _options(ap: argparse.ArgumentParser) -> None:
    ap.add_argument("--hands", type=int, default=1_000_000)
    ap.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    ap.add_argument("--no-file", action="store_true", help="only the per-family comparison")


def comparisons(args: argparse.Namespace, tmp: Path) -> list[Comparison]:
    import os

    out: list[Comparison] = []
    if not args.no_file:
        n = 5_000 if args.quick else args.hands
        phh, stars = make_files(tmp, n)

        def run(path: Path, workers: int) -> tuple[float, float, dict[str, Any], float]:
            load = os.getloadavg()[0]
            wall, cpu, doc = run_cli(path, workers)
            if doc["summary"]["errors"]:
                raise AssertionError(f"{doc['summary']['errors']} hands with errors")
            return wall, cpu, doc, load

        sides = [Side(f"{label}, {w} worker(s)", functools.partial(run, path, w), work=n,
                      seconds=lambda r: r[0],
                      info=lambda r: {"cpu_seconds": round(r[1], 2),
                                      "load_before": round(r[3], 2)})
                 for w in args.workers for label, path in (("PokerStars text", stars),
                                                           ("PHH", phh))]
        out.append(Comparison(f"pokerjit hand --totals-only, {n:,} play -> convert 6-max hands "
                              "(target >= 20,000 hands/s on 1 worker)", sides, unit="hands",
                              warm=False))
    try:
        import pokerkit.notation  # noqa: F401
        have_pokerkit = True
    except ImportError:
        have_pokerkit = False
    for fam, files in family_files().items():
        hands, _ = ours(files)
        if not hands:
            continue
        sides = [Side(f"pokerjit ({len(files)} files)", functools.partial(ours, files),
                      work=hands)]
        parser = POKERKIT_PARSERS.get(fam)
        if parser is not None and have_pokerkit:
            got = theirs(parser, files)
            if got:
                sides.append(Side(f"pokerkit {parser} ({got} hands)",
                                  functools.partial(theirs, parser, files), work=got))
        out.append(Comparison(f"{fam}: {hands} sample hands read and replayed", sides,
                              unit="hands", min_rep_s=0.5))
    return out


if __name__ == "__main__":
    raise SystemExit(script_main(__doc__, comparisons, add_arguments=_options, repeat=3))
