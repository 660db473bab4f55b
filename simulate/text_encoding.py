"""What a file's first bytes say about its text: a byte-order mark, UTF-16 by its NUL bytes,
binary by its NUL bytes.

The readers of outside text share it: the site hand-history reader decodes what it finds
(:func:`simulate.notation.site_text.decode`); ``pokerjit batch``, which reads UTF-8 only,
refuses a UTF-16 or binary input at once with one line
(:class:`simulate.batch.files.Input`).
"""

from __future__ import annotations

#: Byte-order marks and the encodings they name.
BOMS = ((b"\xef\xbb\xbf", "utf-8"), (b"\xff\xfe", "utf-16-le"), (b"\xfe\xff", "utf-16-be"))

#: Bytes looked at: UTF-16 is recognised in the first 4 KiB, binary in the first 8 KiB.
UTF16_HEAD = 4096
BINARY_HEAD = 8192


def sniff(data: bytes) -> tuple[str | None, int]:
    """``(encoding, bytes of its byte-order mark)`` for a file starting with ``data``: the
    mark's encoding (:data:`BOMS`); without one, ``"utf-16-le"`` or ``"utf-16-be"`` when
    more than a quarter of the first 4 KiB are NUL bytes at odd (even) offsets and none at
    even (odd) ones, as ASCII text in UTF-16 is; else ``(None, 0)``."""
    for bom, name in BOMS:
        if data.startswith(bom):
            return name, len(bom)
    if len(data) >= 4:
        head = data[:UTF16_HEAD]
        even, odd = head[0::2].count(0), head[1::2].count(0)
        if odd > len(head) // 4 and even == 0:
            return "utf-16-le", 0
        if even > len(head) // 4 and odd == 0:
            return "utf-16-be", 0
    return None, 0


def mostly_nul(data: bytes) -> int:
    """The NUL bytes in the first 8 KiB of ``data`` when they are at least half of them (a
    binary file, an image of a disk, a sparse file), else 0."""
    head = data[:BINARY_HEAD]
    nul = head.count(0)
    return nul if head and 2 * nul >= len(head) else 0
