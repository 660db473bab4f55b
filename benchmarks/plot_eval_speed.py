"""Draw ``benchmarks/eval_speed.png``: 7-card evaluations per second, pokerjit and the peers.

Usage::

    pokerjit bench --peers --json > bench.json
    python benchmarks/plot_eval_speed.py bench.json [-o benchmarks/eval_speed.png]

Reads the ``batch`` (one thread, with peers) and ``batch-mt`` (all threads) cases of the
report and draws one horizontal bar per evaluator on a log scale (median rate, with a
min..max whisker), labelled with the peer's API path (native batch, per-call Python
overhead, pure Python). Needs matplotlib (``pip install matplotlib``).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
LABELS = {"ompeval": "OMPEval (pokerfast)", "phevaluator": "phevaluator", "eval7": "eval7",
          "poker_equity": "poker-equity", "treys": "treys", "pokerkit": "pokerkit",
          "pokerfast_py": "pokerfast (Python)"}


def bars(report: dict[str, Any]) -> list[tuple[str, float, float, float, bool]]:
    """``(label, median, min, max, is_pokerjit)`` per evaluator, fastest first."""
    cases = {c["name"]: c for c in report["cases"]}
    out = []
    for name, what in (("batch-mt", "all threads"), ("batch", "1 thread")):
        c = cases.get(name)
        if c and c["status"] == "ok":
            r = c["rate"]
            out.append((f"pokerjit, {what} ({c['threads']})" if name == "batch-mt"
                        else f"pokerjit, {what}", r["median"], r["min"], r["max"], True))
    batch = cases.get("batch")
    for p in (batch or {}).get("peers", []):
        if p.get("status") == "ok":
            r = p["rate"]
            label = f"{LABELS.get(p['peer'], p['peer'])}, 1 thread\n[{p['path']}]"
            out.append((label, r["median"], r["min"], r["max"], False))
    if not out:
        raise SystemExit("no 'batch' results in this report (run: pokerjit bench --peers --json)")
    return sorted(out, key=lambda b: -b[1])


def plot(report: dict[str, Any], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = bars(report)
    labels = [r[0] for r in rows]
    med = [r[1] for r in rows]
    err = [[r[1] - r[2] for r in rows], [r[3] - r[1] for r in rows]]
    colors = ["#c0392b" if r[4] else "#7f8c8d" for r in rows]
    fig, ax = plt.subplots(figsize=(8.5, 0.55 * len(rows) + 1.6), dpi=110)
    y = list(range(len(rows)))
    ax.barh(y, med, xerr=err, color=colors, capsize=3, error_kw={"lw": 0.8})
    ax.set_yticks(y, labels, fontsize=8)
    ax.invert_yaxis()
    ax.set_xscale("log")
    ax.set_xlabel("7-card evaluations per second (median, min..max; log scale)")
    for yi, v, hi in zip(y, med, (r[3] for r in rows), strict=True):
        ax.text(max(v, hi) * 1.25, yi, f"{v / 1e6:,.2f} M/s" if v >= 1e5 else f"{v / 1e3:,.1f} k/s",
                va="center", fontsize=8)
    ax.set_xlim(min(r[2] for r in rows) / 2, max(r[3] for r in rows) * 8)
    m = report["machine"]
    ax.set_title(f"Random 7-card hands: pokerjit vs peers\n{m['cpu']}, {m['cores']} cores, "
                 f"numba {m['numba']} (pokerjit bench --peers, {report['mode']} mode)",
                 fontsize=9)
    ax.grid(axis="x", which="both", alpha=0.25)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("report", nargs="?", help="JSON from `pokerjit bench --peers --json` "
                                              "(default: stdin)")
    ap.add_argument("-o", "--output", default=str(HERE / "eval_speed.png"))
    args = ap.parse_args(argv)
    text = Path(args.report).read_text() if args.report else sys.stdin.read()
    plot(json.loads(text), Path(args.output))
    print(f"wrote {args.output}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
