"""The workbench's statistics page (``pokerjit serve --db FILE``): the API answers what
``pokerjit stats --json`` prints, the graph, refusals (no database, bad options, no path
taken from a request), and the page in a real browser (sorting, filtering, the graph; the
Chromium of helpers.chromium, as tests/test_serve_page.py; saves ``benchmarks/stats_page.png``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("duckdb")
pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
pytest.importorskip("httpx")

from helpers import chromium, serving, wait_for  # noqa: E402
from starlette.testclient import TestClient  # noqa: E402

from simulate.cli import main  # noqa: E402
from simulate.serve.app import Settings, create_app  # noqa: E402
from simulate.serve.workers import Pool  # noqa: E402
from simulate.store.importer import import_hands  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
PHH = ROOT / "tests" / "data" / "phh"
BASE = "http://127.0.0.1:8765"


@pytest.fixture(scope="module")
def db(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("serve") / "h.duckdb"
    import_hands([PHH / "derived", PHH / "vendor" / "phh-curated" / "pluribus_ai"], path)
    return path


@pytest.fixture(scope="module")
def client(db: Path) -> Any:
    app = create_app(Pool(1, warm=False), Settings("127.0.0.1", 8765, db=str(db)))
    with TestClient(app, base_url=BASE) as c:
        yield c


def test_stats_api_is_the_command_s_document(client: Any, db: Path, capsys) -> None:
    for query, argv in (("", []), ("?min_hands=50&game=holdem", ["--min-hands", "50",
                                                                  "--game", "holdem"]),
                        ("?player=Pluribus&player=MrBlue&position=BTN",
                         ["--player", "Pluribus", "MrBlue", "--position", "BTN"])):
        r = client.get(f"/api/v1/stats{query}")
        assert r.status_code == 200, r.text
        assert main(["stats", "--db", str(db), "--json", *argv]) == 0
        cli = json.loads(capsys.readouterr().out)
        cli.pop("load_s", None)
        assert r.json() == cli


def test_graph(client: Any) -> None:
    g = client.get("/api/v1/graph?player=Pluribus").json()
    assert g["player"] == "Pluribus" and g["hands"] == 110 and g["x"][-1] == 110
    for k in ("net", "allin_adjusted", "showdown", "non_showdown"):
        assert len(g[k]) == len(g["x"])
    assert g["net"][-1] == pytest.approx(g["showdown"][-1] + g["non_showdown"][-1])
    stats = client.get("/api/v1/stats?player=Pluribus").json()["players"][0]
    assert g["net"][-1] == pytest.approx(stats["net"])


def test_refusals(client: Any, db: Path) -> None:
    assert client.get("/api/v1/graph").status_code == 400
    assert client.get("/api/v1/graph?player=nobody").status_code == 404
    r = client.get("/api/v1/stats?since=yesterday")
    assert r.status_code == 400 and "--since" in r.json()["error"]
    assert client.get("/api/v1/stats?min_hands=x").status_code == 400
    assert client.post("/api/v1/stats", json={}).status_code == 405
    # a request cannot name another file
    r = client.get(f"/api/v1/stats?db={db}.other&path=/etc/passwd")
    assert r.status_code == 200
    page = client.get("/stats")
    assert page.status_code == 200 and 'id="stats"' in page.text and 'id="graph"' in page.text
    assert client.get("/static/stats.js").status_code == 200
    bare = create_app(Pool(1, warm=False), Settings("127.0.0.1", 8765))
    with TestClient(bare, base_url=BASE) as c:
        r = c.get("/api/v1/stats")
        assert r.status_code == 404 and "--db" in r.json()["error"]


def test_serve_needs_an_existing_database(tmp_path: Path, capsys) -> None:
    assert main(["serve", "--db", str(tmp_path / "none.duckdb")]) == 2
    assert "no such file" in capsys.readouterr().err


# ----------------------------------------------------------------------------- browser


@pytest.mark.slow
def test_stats_page_in_a_browser(db: Path) -> None:
    d = chromium()
    gen = serving("--workers", "1", "--no-warm", "--db", str(db))
    server = next(gen)
    try:
        def wait(cond: Any, what: str) -> Any:
            return wait_for(cond, 30, what)

        def column(i: int) -> list[str]:
            return d.execute_script(
                "return Array.from(document.querySelectorAll("
                f"'#stats tbody tr td:nth-child({i})'), c => c.innerText.trim());")

        d.get(server.url + "/stats")
        wait(lambda: len(column(1)) > 5, "the table")
        assert column(1)[0] == "Pluribus" and column(2)[0] == "110"
        wait(lambda: d.find_elements("css selector", "#graph polyline[data-line=net]"),
             "the graph")
        assert "Pluribus" in d.find_element("id", "graph-title").text
        # a player's graph
        d.execute_script("Array.from(document.querySelectorAll('#stats td.player-name'))"
                         ".find(c => c.innerText === 'MrBlue').click();")
        wait(lambda: "MrBlue" in d.find_element("id", "graph-title").text, "MrBlue's graph")
        d.save_screenshot(str(ROOT / "benchmarks" / "stats_page.png"))  # the README's picture
        # sort by VPIP (descending), then ascending
        d.find_element("css selector", "#stats th[data-key=vpip]").click()
        vp = [float(x) for x in column(3) if x != "-"]
        assert vp == sorted(vp, reverse=True)
        d.find_element("css selector", "#stats th[data-key=vpip]").click()
        vp = [float(x) for x in column(3) if x != "-"]
        assert vp == sorted(vp)
        # a filter, and a bad one shown as an error
        el = d.find_element("id", "f-min-hands")
        el.clear()
        el.send_keys("90")
        d.find_element("id", "apply").click()
        wait(lambda: len(column(1)) == 2, "the filtered table")
        el = d.find_element("id", "f-since")
        el.send_keys("soon")
        d.find_element("id", "apply").click()
        err = wait(lambda: [e for e in d.find_elements("css selector", ".error")
                            if e.is_displayed()], "the error")
        assert "--since" in err[0].text
        assert [e for e in d.get_log("browser") if e["level"] == "SEVERE"
                and "/api/v1/stats" not in e["message"]] == []
    finally:
        d.quit()
        for _ in gen:
            pass
