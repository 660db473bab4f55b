"""simulate.notation's two doors: read(text) finds the format from the content, write(records,
format) by name; unknown text or format names the known ones."""

import pytest

import simulate.notation as N
from simulate.notation import FORMATS, PHHError, read, write

HAND = ('variant = "NT"\nantes = [0, 0]\nblinds_or_straddles = [1, 2]\nmin_bet = 2\n'
        'starting_stacks = [100, 100]\n'
        'actions = ["d dh p1 AhKh", "d dh p2 QsQd", "p2 f"]\n')


def test_read_a_single_hand_and_a_collection():
    (h,) = read(HAND, source="one.phh")
    assert h.variant == "NT" and h.source == "one.phh" and len(h.actions) == 3
    both = read(f"# two hands\n[1]\n{HAND}\n[2]\n{HAND}".encode(), source="two.phhs")
    assert [x.source for x in both] == ["two.phhs#1", "two.phhs#2"]
    assert all(x.fields == h.fields for x in both)


def test_write_then_read_gives_the_records_back():
    (h,) = read(HAND)
    assert read(write([h]))[0].fields == h.fields
    assert not write([h]).startswith("[")  # one record: a single hand
    again = read(write([h, h], "phh"))
    assert [x.fields for x in again] == [h.fields, h.fields]
    assert write([]) == ""


@pytest.mark.parametrize("text", ["hello world", "", b"\x00\x01binary", "{\"json\": 1}"])
def test_text_in_no_known_format_is_one_clear_error(text):
    with pytest.raises(ValueError, match=r"not a known hand-history format \(known: phh, ohh"):
        read(text)


def test_a_bad_phh_hand_is_its_phh_error():
    with pytest.raises(PHHError, match="x.phh: variant must be a string"):
        read("variant = 3\n", source="x.phh")


def test_an_unknown_write_format_names_the_known_ones():
    with pytest.raises(ValueError,
                       match=r"unknown hand-history format 'stars' to write \(known: phh, ohh"):
        write(read(HAND), "stars")


def test_one_registry_and_the_reader_names_still_exported():
    from simulate.notation.sites import SITE_FORMATS

    # PHH first, then one row per site family (Open Hand History among them)
    assert [f.name for f in FORMATS] == ["phh", *(f.name for f in SITE_FORMATS)]
    assert {"phh", "ohh"} <= {f.name for f in FORMATS if f.write is not None}
    for name in ("HandHistory", "PHHError", "iter_hands", "parse_text", "load_hands"):
        assert hasattr(N, name) and name in N.__all__
