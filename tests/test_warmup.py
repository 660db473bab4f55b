"""simulate/warmup.py and ``pokerjit warmup``: every step runs and is reported; after a
warm-up no command compiles (slow: from an empty cache)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from simulate.cli import main

ROOT = Path(__file__).resolve().parent.parent


def test_warmup_runs_every_step(capsys):
    from simulate.warmup import STEPS

    assert main(["warmup", "--json"]) == 0
    out, err = capsys.readouterr()
    d = json.loads(out)
    assert [s["name"] for s in d["steps"]] == [s.name for s in STEPS]
    assert all(s["seconds"] >= s["compile_s"] >= 0 for s in d["steps"])
    assert d["seconds"] == pytest.approx(sum(s["seconds"] for s in d["steps"]))
    assert d["cache"] is None or isinstance(d["cache"], str)
    assert "error" not in err and "Traceback" not in err


def test_warmup_text(capsys, monkeypatch):
    import simulate.warmup as W

    monkeypatch.setattr(W, "STEPS", W.STEPS[:2])
    assert main(["warmup"]) == 0
    out, err = capsys.readouterr()
    assert out.splitlines()[0].split() == ["step", "time", "compiling", "or", "loading"]
    assert [ln.split()[0] for ln in out.splitlines()[2:4]] == ["evaluator", "omaha"]
    assert "s in all" in out and "evaluator:" in err


@pytest.mark.slow
def test_after_warmup_no_command_compiles(tmp_path: Path):
    env = {k: v for k, v in os.environ.items() if not k.startswith("NUMBA_CACHE")}
    env["NUMBA_CACHE_DIR"] = str(tmp_path / "cache")

    def cli(*argv: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "simulate", *argv], cwd=ROOT, env=env,
                              capture_output=True, text=True, timeout=1800)

    w = cli("warmup", "-q")
    assert w.returncode == 0 and w.stderr.startswith("compiling pokerjit's kernels"), w.stderr
    for argv in (["equity", "AhKh", "QsQd"], ["equity", "AhKh", "QsQd", "--samples", "1000"],
                 ["equity", "AhAsKhKs", "QdJdTc9c", "--game", "omaha", "--board", "2c7d8h"],
                 ["range", "QQ+,AKs", "--vs", "random", "--board", "Td9d2c"],
                 ["allin", "AhAs:100", "KdKc:60", "QhQs:30"]):
        p = cli(*argv, "--json")
        assert p.returncode == 0 and p.stderr == "", (argv, p.stderr)
        assert json.loads(p.stdout)["load_s"] < 5
