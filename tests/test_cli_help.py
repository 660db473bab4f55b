"""simulate.cli: every command's ``-h`` carries examples, every example parses, and at
least one example of every command runs as printed (in a scratch folder, so the files an
example writes land there)."""

from __future__ import annotations

import importlib
import json
import re
import shlex
from pathlib import Path

import pytest

from simulate.cli import COMMANDS, build_parser, main

ROOT = Path(__file__).resolve().parent.parent

#: Which example of each command the quick run executes (its index in the help text);
#: the rest of the commands' chosen examples take longer and run in the slow set.
QUICK = {"equity": 0, "eval": 0, "range": 0, "allin": 0, "icm": 0, "pushfold": 0, "hand": 0,
         "batch": 0, "convert": 0, "import": 0, "stats": 0, "export": 0}
#: Commands of the hand database: their examples run where DuckDB is installed (the ``db``
#: extra; CI installs it).
DB_COMMANDS = {"import", "stats", "export"}
SLOW = {"chart": 1, "play": 4, "bench": 0, "warmup": 0}
#: Commands whose examples only parse here: `serve` runs until stopped (tests/test_serve.py
#: starts it and stops it).
PARSE_ONLY = {"serve"}


def examples(name: str) -> list[str]:
    """The ``pokerjit ...`` lines of a command's help epilog, prompt stripped."""
    text = getattr(importlib.import_module(f"simulate.cli.{name}"), "EXAMPLES", "") or ""
    out = []
    for line in text.splitlines():
        m = re.match(r"\s+(?:\w+=\S+\s+)?pokerjit (.+)$", line)
        if m:
            out.append(m.group(1).split(" | ")[0].split(" > ")[0].split(" && ")[0].strip())
    return out


def test_every_command_is_listed_with_examples():
    assert set(QUICK) | set(SLOW) | PARSE_ONLY == set(COMMANDS)
    for name in COMMANDS:
        assert examples(name), f"pokerjit {name} -h shows no example"


@pytest.mark.parametrize("name", COMMANDS)
def test_every_example_parses(name):
    parser = build_parser()
    for line in examples(name):
        argv = shlex.split(line)
        assert argv[0] == name, line
        args = parser.parse_args(argv)
        assert args._run is not None


def _run_example(name: str, index: int, where: Path, monkeypatch) -> int:
    line = examples(name)[index]
    monkeypatch.chdir(where)
    if name == "batch":  # the epilog's own request lines are the example's input
        text = importlib.import_module("simulate.cli.batch").EXAMPLES
        blob = re.sub(r"\n\s+(?=[\"}\w])", " ", text)
        reqs = [json.loads(m) for m in re.findall(r"^\s*(\{\"id\".*\})\s*$", blob, re.M)]
        assert reqs, "the batch help shows no request line"
        (where / "requests.jsonl").write_text("".join(json.dumps(r) + "\n" for r in reqs))
    if name in DB_COMMANDS and name != "import":  # the database the example reads
        assert main(["import", str(ROOT / "tests" / "data" / "phh" / "derived"), "--db",
                     "hands.duckdb", "-q"]) == 0
    argv = shlex.split(line)
    for i, a in enumerate(argv):  # example files of the repository, wherever we run
        if (ROOT / a).exists() and not Path(a).is_absolute():
            argv[i] = str(ROOT / a)
    return main(argv)


@pytest.mark.parametrize("name", sorted(QUICK))
def test_an_example_runs(name, tmp_path, monkeypatch, capsys):
    if name in DB_COMMANDS:
        pytest.importorskip("duckdb")
    assert _run_example(name, QUICK[name], tmp_path, monkeypatch) == 0
    out = capsys.readouterr().out
    if name == "batch":  # answers go to the -o file: every request answered, no error
        lines = [json.loads(x) for x in (tmp_path / "results.jsonl").read_text().splitlines()]
        assert len(lines) == 3 and all("result" in x for x in lines), lines
    else:
        assert out.strip()


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(SLOW))
def test_a_long_example_runs(name, tmp_path, monkeypatch, capsys):
    assert _run_example(name, SLOW[name], tmp_path, monkeypatch) == 0
    assert capsys.readouterr().out.strip()
