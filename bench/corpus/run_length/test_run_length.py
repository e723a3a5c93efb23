import json
import pathlib

import pytest

from run_length import (compress_file, decode, decompress_file, encode, from_string,
                        to_string)

CASES = json.loads(
    (pathlib.Path(__file__).parent / "run_length_cases.json").read_text(encoding="utf-8"))
IDS = [case["id"] for case in CASES]


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_compact_form(case):
    runs = encode(case["text"])
    assert len(runs) == case["runs"]
    assert to_string(runs) == case["compact"]


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_round_trip(case):
    assert decode(encode(case["text"])) == case["text"]
    assert decode(from_string(case["compact"])) == case["text"]


def test_encode_runs():
    assert encode("aaabcc") == [("a", 3), ("b", 1), ("c", 2)]


def test_from_string_rejects_trailing_count():
    with pytest.raises(ValueError):
        from_string("3a4")


def test_files(tmp_path):
    source = tmp_path / "plain.txt"
    packed = tmp_path / "packed.rle"
    restored = tmp_path / "restored.txt"
    source.write_text("aaaaaaaabbbbbbbbcd", encoding="utf-8")
    ratio = compress_file(source, packed)
    assert packed.read_text(encoding="utf-8") == "8a8bcd"
    assert ratio == pytest.approx(6 / 18)
    decompress_file(packed, restored)
    assert restored.read_text(encoding="utf-8") == "aaaaaaaabbbbbbbbcd"


def test_empty_file(tmp_path):
    source = tmp_path / "empty.txt"
    source.write_text("", encoding="utf-8")
    assert compress_file(source, tmp_path / "out.rle") == 1.0
