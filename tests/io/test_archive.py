"""Archives of many files (``bleu.io.archive``, ``bleu.io.staging.stage_archive``): tar in every
compression and zip read in archive order, folders' metadata left out, too many files and
archive bombs refused before anything is read, a damaged archive named."""

from __future__ import annotations

import io
import tarfile
import zipfile

import hostile
import pytest

from bleu.errors import ReadError
from bleu.io.archive import TooManyFilesError, archive_files, is_archive
from bleu.io.staging import stage_archive, stage_file

FILES = {"wmt/t.en-de.hyp.Online-A.de": b"ein Haus\nzwei\n",
         "wmt/t.en-de.ref.A.de": b"ein Haus\nzwei Katzen\n",
         "t.en-de.hyp.Syst\u00e8me-\u00e9tendu.de": b"ein\nzwei\n"}
#: what a folder zipped on macOS or copied from one also holds
JUNK = {".DS_Store": b"\x00\x01", "__MACOSX/wmt/._t.en-de.ref.A.de": b"\x00\x05",
        "wmt/.hidden": b"x"}


def tar_of(files: dict[str, bytes], mode: str = "w") -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode=mode) as archive:
        folder = tarfile.TarInfo("wmt")
        folder.type = tarfile.DIRTYPE
        archive.addfile(folder)
        for name, data in files.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
    return buffer.getvalue()


def zip_of(files: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("wmt/", b"")
        for name, data in files.items():
            archive.writestr(name, data)
    return buffer.getvalue()


@pytest.mark.parametrize(("name", "data"), [
    ("all.tar", tar_of({**FILES, **JUNK})),
    ("all.tar.gz", tar_of({**FILES, **JUNK}, "w:gz")),
    ("all.tgz", tar_of({**FILES, **JUNK}, "w:gz")),
    ("all.tar.bz2", tar_of({**FILES, **JUNK}, "w:bz2")),
    ("all.tar.xz", tar_of({**FILES, **JUNK}, "w:xz")),
    ("ALL.ZIP", zip_of({**FILES, **JUNK})),
])
def test_every_kind_gives_its_regular_files_in_order(name: str, data: bytes) -> None:
    assert is_archive(name)
    found = archive_files(data, name, max_files=10)
    assert [(f.name, f.data) for f in found] == list(FILES.items())


def test_names_that_are_not_archives() -> None:
    assert not any(is_archive(name) for name in ("hyp.de", "x.tsv", "tar", "a.tar.txt"))


def test_too_many_files_are_refused_with_the_count() -> None:
    data = tar_of({f"s{k}.de": b"x\n" for k in range(12)})
    with pytest.raises(TooManyFilesError) as refused:
        archive_files(data, "many.tar", max_files=11)
    assert (refused.value.count, refused.value.limit) == (12, 11)
    assert "many.tar holds more than 11 files; at most 11" in str(refused.value)


def test_a_bomb_is_refused_by_its_declared_size_before_reading() -> None:
    data = tar_of({"big.de": b"a\n" * 600_000}, "w:gz")  # 1.2 MB unpacked, a few KB packed
    assert len(data) < 20_000
    with pytest.raises(ReadError, match=r"big\.tar\.gz unpacks to more than 1 MB"):
        archive_files(data, "big.tar.gz", max_files=5, limit_mb=1)


@pytest.mark.parametrize("name", ["broken.tar", "broken.zip", "broken.tar.gz"])
def test_a_damaged_archive_is_named(name: str) -> None:
    with pytest.raises(ReadError, match=rf"{name.replace('.', '[.]')}: not a readable"):
        archive_files(b"this is not an archive\n" * 40, name, max_files=5)


def test_a_truncated_archive_is_named() -> None:
    data = tar_of(FILES, "w:gz")[:-40]
    with pytest.raises(ReadError, match=r"cut\.tar\.gz: the tar archive is damaged or cut short "
                                        r"after wmt/t\.en-de\.ref\.A\.de"):
        archive_files(data, "cut.tar.gz", max_files=5)


def test_an_empty_archive_says_so() -> None:
    with pytest.raises(ReadError, match="holds no files"):
        archive_files(tar_of(JUNK), "junk.tar", max_files=5)


def test_staging_an_archive_is_staging_its_files_one_by_one() -> None:
    bad = {"wmt/binary.de": b"\x00" * 20 + b" not text"}
    staged = stage_archive(tar_of({**FILES, **bad}), "all.tar", max_files=10)
    one_by_one = [stream for name, data in FILES.items() for stream in stage_file(data, name)]
    assert staged.streams == tuple(one_by_one)
    assert [stream.role for stream in staged.streams] == ["system", "reference", "system"]
    assert [stream.name for stream in staged.streams] == ["Online-A", "A",
                                                          "Syst\u00e8me-\u00e9tendu"]
    [error] = staged.errors  # the binary file is left out, the others stay
    assert "wmt/binary.de" in str(error)
    assert staged.files == 4


# --- issue 36: bounded before anything is read, one message per damaged archive -------------

#: bombs and count bombs, refused in a process limited to 1 GiB of address space and 30 s of
#: CPU: before, each was read whole first (10 GiB of bzip2: 21-44 s; a million members: 837 MB
#: and 48 s), and the CPU limit killed the reader
BOMBS = [
    pytest.param(lambda: hostile.zero_bomb("bz2", 10), "zeros.tar.bz2",
                 "zeros.tar.bz2 unpacks to more than 200 MB", id="bz2-10GiB"),
    pytest.param(lambda: hostile.zero_bomb("xz", 10), "zeros.tar.xz",
                 "zeros.tar.xz unpacks to more than 200 MB", id="xz-10GiB"),
    pytest.param(lambda: hostile.zero_bomb("gz", 2), "zeros.tgz",
                 "zeros.tgz unpacks to more than 200 MB", id="gz-2GiB"),
    pytest.param(lambda: hostile.empty_members("xz", 1_000_000), "million.tar.xz",
                 "million.tar.xz holds more than 1,100 files; at most 1,100", id="xz-1M-members"),
]


@pytest.mark.parametrize(("make", "name", "message"), BOMBS)
def test_bombs_are_refused_in_bounded_memory_and_work(make, name, message, tmp_path) -> None:
    caged = hostile.read_caged(make(), name, tmp_path, call=hostile.ARCHIVE_CALL)
    assert caged.status == 0, caged  # not killed for memory or CPU
    assert message in caged.outcome
    assert caged.peak_mib < 400  # the limit's 200 MB unpacked, at most, and the interpreter


def test_the_unpacked_limit_counts_bytes_decompressed_not_only_declared() -> None:
    """A header may say 0 bytes for a pax or long-name block of any size: every byte the
    decompressor gives is counted, headers included."""
    pax = tarfile.TarInfo("x.de")
    pax.pax_headers = {"comment": "y" * (3 * 2**20)}  # 3 MB of pax header for a 0-byte file
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz", format=tarfile.PAX_FORMAT) as archive:
        archive.addfile(pax, io.BytesIO(b""))
    with pytest.raises(ReadError, match=r"pax\.tgz unpacks to more than 1 MB"):
        archive_files(buffer.getvalue(), "pax.tgz", max_files=5, limit_mb=1)


FILES31 = {f"sys{k:02d}.de": f"Satz {k}\n".encode() * (k + 1) for k in range(31)}
TAR31 = hostile.plain_tar(FILES31)


@pytest.mark.parametrize(("data", "name", "pieces"), [
    pytest.param(hostile.flipped_header(FILES31, 11), "flipped.tar",
                 ("flipped.tar: the tar archive is damaged after sys10.de",
                  "the files after it cannot be read", "nothing was loaded"), id="flipped-header"),
    pytest.param(hostile.damaged_tar_xz(FILES31), "damaged.tar.xz",
                 ("damaged.tar.xz: the tar archive is damaged or cut short after sys0",
                  "nothing was loaded"), id="damaged-xz"),
    pytest.param(TAR31[:TAR31.index(b"sys20.de") + 600], "cut.tar",
                 ("cut.tar: the tar archive is damaged or cut short at sys20.de",
                  "nothing was loaded"), id="truncated"),
    pytest.param(hostile.corrupt_zip({"a.de": b"hello world\n" * 100}), "corrupt.zip",
                 ("corrupt.zip: the zip archive is damaged or cut short at a.de",),
                 id="corrupt-zip"),
    pytest.param(hostile.encrypted_zip({"a.de": b"x\n"}), "secret.zip",
                 ("secret.zip: a.de is encrypted (password-protected)",
                  "Unpack it with its password"), id="encrypted-zip"),
    pytest.param(hostile.deflate64_zip({"a.de": b"x\n"}), "big.zip",
                 ("big.zip: a.de is compressed with Deflate64, which this server does not read",
                  "ordinary zip compression (deflate)"), id="deflate64-zip"),
])
def test_a_damaged_or_unsupported_archive_gets_one_message_naming_the_member(data, name, pieces):
    """Before: a traceback with server paths (encrypted, Deflate64, xz), or 11 of 31 files
    loaded without a word (the flipped header byte)."""
    with pytest.raises(ReadError) as refused:
        archive_files(data, name, max_files=100)
    message = str(refused.value)
    for piece in pieces:
        assert piece in message, message
    assert "/" not in message.replace(name, "")  # no server path


def test_a_zip_whose_directory_holds_a_million_entries_is_refused_before_zipfile_reads_it():
    """The central directory is walked (and counting stops) before zipfile makes an object per
    entry."""
    one = hostile.zip_of({"e.de": b""}, zipfile.ZIP_STORED)
    end = one.rindex(b"PK\x05\x06")
    central = one.index(b"PK\x01\x02")
    local, entry = one[:central], one[central:end]
    count = 70_000  # zip64 needed past 65,535: the end record's count is only a hint
    directory = entry * count
    eocd = bytearray(one[end:])
    eocd[8:12] = b"\xff\xff\xff\xff"
    eocd[12:20] = len(directory).to_bytes(4, "little") + len(local).to_bytes(4, "little")
    data = local + directory + bytes(eocd)
    with pytest.raises(TooManyFilesError, match="holds more than 1,100 files"):
        archive_files(data, "entries.zip", max_files=1100)
