"""The answer of one API request: the document its command prints with ``--json``.

``document(kind, body)`` is what a worker process runs for ``POST /api/v1/KIND``. Each kind
is answered by the one function that builds that command's document:

* ``equity``, ``range``, ``allin``: the body is the batch request of that kind
  (:func:`simulate.batch.requests.effective` reads it, with the batch's field checks and
  defaults; :func:`simulate.batch.requests.document` answers it);
* ``eval``: ``{"cards", "board", "game"}`` -> :func:`simulate.documents.eval_document`;
* ``chart``: ``{"opponents": [N...], "samples", "std_error", "seed"}`` ->
  :func:`simulate.documents.chart_document`;
* ``hand``: ``{"phh": "<PHH text>"}`` (never a path) -> :func:`simulate.documents.hand_document`.

Bad input raises one of :data:`BAD_INPUT`, whose first line (:func:`simulate.documents.
error_line`) is the HTTP 400 message, as the command line prints it after ``error:``.
"""

from __future__ import annotations

from typing import Any

from evaluator.cards import CardError
from simulate.batch.requests import BadRequest
from simulate.documents import UsageError, with_load_s

KINDS = ("equity", "range", "allin", "eval", "chart", "hand")
#: The exceptions that mean a bad request (HTTP 400), as on the command line (exit 2).
BAD_INPUT = (UsageError, CardError, ValueError, TypeError)
EVAL_FIELDS = ("cards", "board", "game")
CHART_FIELDS = ("opponents", "samples", "std_error", "seed")
HAND_FIELDS = ("phh",)
MAX_PHH_CHARS = 1 << 20  # the body limit bounds it too; one hand history file's worth


def _fields(body: Any, kind: str, allowed: tuple[str, ...]) -> dict[str, Any]:
    if not isinstance(body, dict):
        raise BadRequest("a request must be a JSON object")
    unknown = sorted(str(k) for k in body if k not in allowed)
    if unknown:
        raise BadRequest(f"unknown field {unknown[0]!r} for kind {kind!r} "
                         f"(fields: {', '.join(allowed)})")
    return body


def _text(body: dict[str, Any], name: str, default: str = "") -> str:
    v = body.get(name)
    if v is None:
        return default
    if not isinstance(v, str):
        raise BadRequest(f"{name} must be a string, got {type(v).__name__}")
    return v


def _lone_surrogate(value: Any, where: str) -> tuple[str, str, int] | None:
    """The first string in a JSON value (keys included) that is not Unicode text, as
    ``(where, text, index of the lone surrogate)``; JSON's ``\\ud800`` escapes can write
    one, and nothing downstream can encode it."""
    if isinstance(value, str):
        for i, ch in enumerate(value):
            if "\ud800" <= ch <= "\udfff":
                return where, value, i
        return None
    items: Any = ()
    if isinstance(value, dict):
        for k in value:
            bad = _lone_surrogate(k, f"a field name in {where}" if where else "a field name")
            if bad:
                return bad
        items = ((f"{where}.{k}" if where else str(k), v) for k, v in value.items())
    elif isinstance(value, list):
        items = ((f"{where}[{i}]", v) for i, v in enumerate(value))
    for w, v in items:
        bad = _lone_surrogate(v, w)
        if bad:
            return bad
    return None


def check_text(kind: str, body: Any) -> None:
    """Refuse a request with a lone surrogate in any string (:class:`BadRequest`, naming the
    field; for ``hand``'s PHH text, the line, as for a file that is not UTF-8 text)."""
    bad = _lone_surrogate(body, "")
    if bad is None:
        return
    where, text, i = bad
    code = f"U+{ord(text[i]):04X}"
    if kind == "hand" and where == "phh":
        raise BadRequest(f"request: no PHH hand could be read (not UTF-8 text: a lone "
                         f"surrogate {code} at line {text.count(chr(10), 0, i) + 1})")
    raise BadRequest(f"{where or 'the request'} is not Unicode text: a lone surrogate {code} "
                     f"at character {i + 1}")


def document(kind: str, body: Any) -> dict[str, Any]:
    """The ``--json`` document (with ``load_s`` where it has ``elapsed_s``, as the command
    prints it) of one API request; raises one of :data:`BAD_INPUT` for a bad request."""
    check_text(kind, body)
    if kind in ("equity", "range", "allin"):
        from simulate.batch import requests

        if not isinstance(body, dict):
            raise BadRequest("a request must be a JSON object")
        if body.get("kind", kind) != kind:
            raise BadRequest(f"kind {body['kind']!r} sent to /api/v1/{kind}")
        return with_load_s(requests.document(requests.effective({**body, "kind": kind})))
    if kind == "eval":
        from simulate.documents import eval_document

        b = _fields(body, kind, EVAL_FIELDS)
        if "cards" not in b:
            raise BadRequest("missing field 'cards'")
        return eval_document(_text(b, "cards"), _text(b, "board"), _text(b, "game", "holdem"))
    if kind == "chart":
        from simulate.chart import check_opponents
        from simulate.documents import chart_document
        from simulate.sampling import BATCH_NAMES, Sampling

        b = _fields(body, kind, CHART_FIELDS)
        opponents = b.get("opponents", [1])
        if not isinstance(opponents, list):
            raise BadRequest(f"opponents must be a list of numbers 1..9, got {opponents!r}"[:120])
        opts = Sampling(None, b.get("samples"), b.get("std_error"),
                        b.get("seed")).validate(BATCH_NAMES)
        return with_load_s(chart_document(check_opponents(opponents), samples=opts.samples,
                                          target_std_error=opts.target_std_error,
                                          seed=opts.seed))
    if kind == "hand":
        from simulate.documents import hand_document

        b = _fields(body, kind, HAND_FIELDS)
        text = b.get("phh")
        if not isinstance(text, str):
            raise BadRequest("phh must be the text of a PHH hand history (a string)")
        if len(text) > MAX_PHH_CHARS:
            raise BadRequest(f"phh is over {MAX_PHH_CHARS:,} characters")
        return hand_document(text)
    raise BadRequest(f"unknown kind {kind!r} (kinds: {', '.join(KINDS)})")


#: The kinds of work of :func:`simulate.warmup.warm` whose kernels the API and the workbench
#: use.
WARM_KINDS = ("evaluator", "omaha", "equity", "range", "allin", "hand")


def warm(report: Any = None) -> None:
    """Load (or compile) the kernels the API uses: :data:`WARM_KINDS` of the one warm-up
    registry (:func:`simulate.warmup.warm`), then one request of each kind. ``report(name,
    seconds)`` after each step."""
    import time

    from simulate.warmup import warm as warm_kinds

    warm_kinds(WARM_KINDS, report=report)
    t0 = time.perf_counter()
    document("equity", {"hands": ["AhKh", "QsQd"]})
    document("eval", {"cards": "AsKsQsJsTs"})
    document("allin", {"players": ["AhAs:100", "KdKc:60"]})
    if report is not None:
        report("requests", time.perf_counter() - t0)
