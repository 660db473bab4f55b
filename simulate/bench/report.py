"""Text and markdown output of a :func:`~simulate.bench.runner.run_bench` report."""

from __future__ import annotations

from typing import Any

from simulate.texttable import table

from .runner import SPEEDUP_NOTE


def _si(x: float | None) -> str:
    if x is None:
        return "-"
    for div, suf in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if abs(x) >= div:
            return f"{x / div:.3g}{suf}"
    return f"{x:.3g}"


def _secs(x: float | None) -> str:
    if x is None:
        return "-"
    if x < 1e-3:
        return f"{x * 1e6:.0f} us"
    if x < 1:
        return f"{x * 1e3:.1f} ms"
    return f"{x:.2f} s"


def _mb(x: int | None) -> str:
    return "-" if x is None else f"{x / 2**20:.1f}"


def format_report(rep: dict[str, Any]) -> str:
    """The human-readable tables of a :func:`run_bench` report."""
    m = rep["machine"]
    lines = [f"machine: {m['cpu']}, {m['cores']} cores, load {m['load_average']}; "
             f"numba {m['numba']}, threads {m['threads_all']}; mode {rep['mode']}, "
             f"{rep['repeat']} repetitions",
             f"lookup tables: {rep['tables_bytes']:,} bytes", ""]
    rows = []
    for c in rep["cases"]:
        s, r, mem = c.get("seconds"), c.get("rate"), c.get("memory") or {}
        rss = _mb(mem.get("rss_peak_bytes"))
        if mem.get("rss_peak_bytes") and mem.get("rss_start_bytes"):
            rss += f" (+{_mb(mem['rss_peak_bytes'] - mem['rss_start_bytes'])})"
        spread = f"{_secs(s['min'])}..{_secs(s['max'])}" if s else "-"
        rows.append([c["name"], str(c.get("threads", "-")),
                     _secs(s["median"]) if s else "-", spread,
                     f"{_si(r['median'])} {c['unit']}" if r else "-",
                     _secs(c.get("compile_s")), _mb(mem.get("tracemalloc_peak_bytes")),
                     rss,
                     ("ok" if c["status"] == "ok" else c["status"]) + ": "
                     + (c["check"] or {}).get("detail", "")])
    lines.append(table(rows, ["case", "thr", "median", "min..max", "rate", "first call",
                              "alloc MB", "peak RSS MB", "check"]))
    prow = []
    for c in rep["cases"]:
        for p in c.get("peers", []):
            if p["status"] != "ok":
                prow.append([c["name"], p["peer"], p["path"], "-", "-", "-",
                             f"error: {p.get('error')}"])
                continue
            sp = p["speedup"]
            chk = p.get("check")
            prow.append([c["name"], p["peer"], p["path"], f"{_si(p['rate']['median'])}",
                         f"{sp['median']:.2f}x" if sp else "-",
                         f"{sp['min']:.2f}..{sp['max']:.2f}" if sp else "-",
                         ("" if chk is None else ("answer ok" if chk["ok"] else "ANSWER WRONG: "
                                                  + chk["detail"]))])
    if prow:
        lines += ["", "peers (" + SPEEDUP_NOTE + "):",
                  table(prow, ["case", "peer", "peer API", "peer rate", "speedup",
                               "min..max", "peer answer"])]
    elif rep.get("peers_available") is None and any("peers:" in n for n in rep["notes"]):
        lines += ["", [n for n in rep["notes"] if n.startswith("peers:")][0]]
    lines += ["", "notes:"] + [f"- {n}" for n in rep["notes"]]
    status = "all checks passed" if rep["ok"] else "SOME CASES FAILED their checks"
    lines.append(f"\n{status} ({rep['elapsed_s']:.1f} s)")
    return "\n".join(lines)


def markdown_table(rep: dict[str, Any]) -> str:
    """The README's performance table (markdown) of a report made with peers."""
    out = ["| case | pokerjit (median) | rate | vs peers (speedup, > 1 = pokerjit faster) |",
           "|---|---|---|---|"]
    for c in rep["cases"]:
        if c["status"] != "ok":
            out.append(f"| {c['title']} | {c['status']} | | |")
            continue
        peers = ", ".join(f"{p['peer']} {p['speedup']['median']:.2f}x"
                          for p in c.get("peers", []) if p["status"] == "ok" and p["speedup"])
        thr = "" if c["threads"] == 1 else f" ({c['threads']} threads)"
        out.append(f"| {c['title']}{thr} | {_secs(c['seconds']['median'])} | "
                   f"{_si(c['rate']['median'])} {c['unit']} | {peers or '-'} |")
    return "\n".join(out)
