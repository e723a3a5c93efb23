#!/usr/bin/env python3
"""Writes the seed corpus of fuzz_wire_decoder: a few valid frames of each
kind the engine parses, a whole child stream, and two malformed headers.
Run from anywhere; rewrites tests/fuzz/corpus/wire/.
SPDX-License-Identifier: MIT"""
import os
import struct

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus", "wire")

# enum lt_frame_type (harness/wire.h)
READY, FAILED, STARTED, EXITED = 10, 11, 12, 13
APPLIED, SANDBOXED, TEST_START, TEST_RESULT, END = 20, 21, 22, 23, 24


def u8(v):
    return struct.pack("<B", v)


def u32(v):
    return struct.pack("<I", v)


def u64(v):
    return struct.pack("<Q", v)


def s(text):
    b = text.encode()
    return u32(len(b)) + b


def frame(ftype, payload=b""):
    return u32(1 + len(payload)) + u8(ftype) + payload


SEEDS = {
    "applied_ok": frame(APPLIED, u8(0) + s("")),
    "applied_raised": frame(APPLIED, u8(2) + s("ZeroDivisionError: x")),
    "sandboxed": frame(SANDBOXED, u32(0x3F)),
    "test_start": frame(TEST_START, u32(7)),
    "test_result": frame(TEST_RESULT, u32(7) + u8(1) + u64(1234567)
                         + s("assert 2 == 3")),
    "end": frame(END),
    "ready": frame(READY, u32(0x3F) + u32(3) + s("t.py::test_a")
                   + s("t.py::test_b") + s("t.py::C::test_c")),
    "failed": frame(FAILED, u8(0) + s("collection failed")),
    "started": frame(STARTED, u64(1) + u32(4242) + u32(0)),
    "exited": frame(EXITED, u64(1) + u32(0) + u64(15000) + u64(2000)
                    + u64(48 << 20) + u64(3)),
    "child_stream": frame(APPLIED, u8(0) + s("")) + frame(SANDBOXED, u32(7))
    + frame(TEST_START, u32(0)) + frame(TEST_RESULT, u32(0) + u8(0) + u64(9)
                                        + s(""))
    + frame(TEST_START, u32(1)) + frame(TEST_RESULT, u32(1) + u8(3) + u64(5)
                                        + s("MemoryError"))
    + frame(END),
    "oversized": u32(1 << 20) + u8(TEST_RESULT) + b"x" * 8,
    "zero_length": u32(0) + u8(END),
}


def main():
    os.makedirs(OUT, exist_ok=True)
    for name, data in SEEDS.items():
        with open(os.path.join(OUT, name), "wb") as f:
            f.write(data)


if __name__ == "__main__":
    main()
