"""The command line's stream reader (``bleu.cli.streams``) against Python's own text reading.

Lines must be exactly what ``io.TextIOWrapper`` gives (sacrebleu reads files with
``newline="\\n"`` and stdin with universal newlines), whatever the block size, so tiny blocks
put every line break, ``\\r\\n`` and multi-byte character across a block boundary. Errors must
name the stream and the line.
"""

from __future__ import annotations

import io

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bleu.cli import streams
from bleu.cli.streams import iter_line_blocks
from bleu.errors import ReadError

#: characters that make line splitting and decoding hard: breaks, CR, tabs, multi-byte ones,
#: and separators that str.splitlines would break on (TextIOWrapper does not)
ALPHABET = st.sampled_from(["a", " ", "\t", "\n", "\r", "é", "€", "𝄞", "\x0b", "\x85",
                            "\u2028", "\ufeff"])
TEXTS = st.lists(ALPHABET, max_size=60).map("".join)


def read(data: bytes | io.RawIOBase, encoding: str = "utf-8", universal: bool = False,
         limit: int = streams.MAX_LINE_CHARS, max_lines: int | None = None) -> list[str]:
    source = io.BytesIO(data) if isinstance(data, bytes) else data
    return [line for block in iter_line_blocks(source, "test.txt", encoding,  # type: ignore
                                               universal=universal, limit=limit,
                                               max_lines=max_lines)
            for line in block]


def python_lines(data: bytes, encoding: str, universal: bool) -> list[str]:
    """The lines Python's text layer gives, without their line break."""
    wrapper = io.TextIOWrapper(io.BytesIO(data), encoding=encoding,
                               newline=None if universal else "\n")
    return [line[:-1] if line.endswith("\n") else line for line in wrapper]


@pytest.fixture
def tiny_blocks(monkeypatch: pytest.MonkeyPatch):
    def use(size: int) -> None:
        monkeypatch.setattr(streams, "BLOCK_BYTES", size)
    return use


@settings(max_examples=300, deadline=None)
@given(text=TEXTS, block=st.integers(1, 9), universal=st.booleans(),
       encoding=st.sampled_from(["utf-8", "utf-16", "utf-16-le", "latin-1"]))
def test_lines_are_pythons_for_any_block_size(text: str, block: int, universal: bool,
                                              encoding: str) -> None:
    if encoding == "latin-1":
        text = text.encode("latin-1", "replace").decode("latin-1")
    data = text.encode(encoding)
    original = streams.BLOCK_BYTES
    streams.BLOCK_BYTES = block  # not a fixture: hypothesis runs many examples per test call
    try:
        assert read(data, encoding, universal) == python_lines(data, encoding, universal)
    finally:
        streams.BLOCK_BYTES = original


@settings(max_examples=200, deadline=None)
@given(lines=st.lists(st.text(st.sampled_from("ab é€\t"), max_size=8), min_size=1, max_size=12),
       data=st.data(), block=st.integers(1, 9), universal=st.booleans())
def test_an_undecodable_byte_names_its_line(lines: list[str], data: st.DataObject, block: int,
                                            universal: bool) -> None:
    bad = data.draw(st.integers(0, len(lines) - 1))
    ending = data.draw(st.sampled_from(["\n", "\r\n", "\r"] if universal else ["\n"]))
    raw = [line.encode("utf-8") for line in lines]
    raw[bad] += b"\xff"
    original = streams.BLOCK_BYTES
    streams.BLOCK_BYTES = block
    try:
        with pytest.raises(ReadError) as caught:
            read(ending.encode().join(raw), universal=universal)
    finally:
        streams.BLOCK_BYTES = original
    assert str(caught.value).startswith(f"test.txt, line {bad + 1}: not valid utf-8 text")


def test_a_truncated_character_at_the_end_names_the_last_line() -> None:
    with pytest.raises(ReadError, match=r"test.txt, line 2: not valid utf-8 text \(unexpected "
                                        r"end of data\)"):
        read(b"one\ntwo \xe2\x82")


@pytest.mark.parametrize("universal", [False, True])
def test_mostly_nul_names_its_line_and_says_binary(universal: bool, tiny_blocks) -> None:
    tiny_blocks(4)
    with pytest.raises(ReadError) as caught:
        read(b"one\r\ntwo\rthree\nfo" + b"\x00" * 40 + b"ur\n", universal=universal)
    line = 4 if universal else 3  # a lone \r ends a line only with universal newlines
    assert str(caught.value) == (
        f"test.txt, line {line}: mostly NUL bytes (UTF-16 text needs -e utf-16), so this is "
        "binary data or text that is not line-based; expected text with one segment per line.")


@pytest.mark.parametrize("universal", [False, True])
def test_a_stray_nul_inside_a_line_is_text(universal: bool, tiny_blocks) -> None:
    """sacrebleu scores a line with a NUL in it; refusing the whole file as binary broke the
    drop-in (issue 36: 11 of 60 generated command lines)."""
    tiny_blocks(4)
    assert read(b"one\nfo\x00ur\n\x00\nfive\n", universal=universal) == \
        ["one", "fo\x00ur", "\x00", "five"]


def test_utf16_read_as_utf8_is_mostly_nul() -> None:
    with pytest.raises(ReadError, match=r"test\.txt, line 1: mostly NUL bytes \(UTF-16 text "
                                        r"needs -e utf-16\)"):
        read("one\ntwo\n".encode("utf-16-le"))


def test_more_lines_than_wanted_stop_the_reading() -> None:
    stream = CountingStream(b"\n")
    with pytest.raises(streams.TooManyLinesError, match=r"test\.txt has more than 3 lines"):
        read(stream, max_lines=3)
    assert stream.given <= streams.BLOCK_BYTES
    assert read(b"a\nb\nc\n", max_lines=3) == ["a", "b", "c"]
    with pytest.raises(streams.TooManyLinesError):
        read(b"a\nb\nc\nd", max_lines=3)  # a last line without a newline counts


@pytest.mark.parametrize(("data", "line"), [
    (b"short\n" + b"x" * 11 + b"\nshort\n", 2),  # a long line in the middle of a block
    (b"short\nshort\n" + b"x" * 11, 3),  # the last line, no final newline
    (b"x" * 10 + b"\n" + b"y" * 10 + b"\n" + b"z" * 11 + b"\n", 3),
])
@pytest.mark.parametrize("block", [3, 1 << 19])
def test_a_line_over_the_limit_names_its_line(data: bytes, line: int, block: int,
                                              tiny_blocks) -> None:
    tiny_blocks(block)
    with pytest.raises(ReadError) as caught:
        read(data, limit=10)
    assert str(caught.value) == (
        f"test.txt, line {line}: longer than 10 characters, the line limit (--line-limit), so "
        "this is binary data or text that is not line-based; expected text with one segment "
        "per line.")


def test_lines_at_the_limit_are_read(tiny_blocks) -> None:
    tiny_blocks(3)
    assert read(b"x" * 10 + b"\r\n" + b"y" * 10, universal=True, limit=10) == ["x" * 10,
                                                                                "y" * 10]


class CountingStream(io.RawIOBase):
    """An endless stream of one byte that counts what was read from it."""

    def __init__(self, byte: bytes) -> None:
        self.byte, self.given = byte, 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:  # type: ignore[override]
        buffer[:] = self.byte * len(buffer)
        self.given += len(buffer)
        return len(buffer)


@pytest.mark.parametrize(("byte", "problem"), [(b"\x00", "mostly NUL bytes"),
                                               (b"a", "longer than 1,000,000 characters")])
def test_endless_bad_input_stops_after_a_few_blocks(byte: bytes, problem: str) -> None:
    stream = CountingStream(byte)
    with pytest.raises(ReadError) as caught:
        read(stream)
    assert str(caught.value).startswith(f"test.txt, line 1: {problem}")
    # the first block with a NUL; for a line, the blocks that pass the limit (a block is 512 KiB)
    assert stream.given <= streams.MAX_LINE_CHARS + 2 * streams.BLOCK_BYTES


def test_an_unknown_encoding_is_a_lookup_error() -> None:
    with pytest.raises(LookupError):
        read(b"a\n", "no-such-codec")
