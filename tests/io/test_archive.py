"""Archives of many files (``bleu.io.archive``, ``bleu.io.staging.stage_archive``): tar in every
compression and zip read in archive order, folders' metadata left out, too many files and
archive bombs refused before anything is read, a damaged archive named."""

from __future__ import annotations

import io
import tarfile
import zipfile

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
    assert "many.tar holds 12 files; at most 11" in str(refused.value)


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
    with pytest.raises(ReadError, match=r"cut\.tar\.gz: not a readable tar archive"):
        archive_files(data, "cut.tar.gz", max_files=5)


def test_an_empty_archive_says_so() -> None:
    with pytest.raises(ReadError, match="holds no files"):
        archive_files(tar_of(JUNK), "junk.tar", max_files=5)


def test_staging_an_archive_is_staging_its_files_one_by_one() -> None:
    bad = {"wmt/binary.de": b"\x00\x01\x02 not text"}
    staged = stage_archive(tar_of({**FILES, **bad}), "all.tar", max_files=10)
    one_by_one = [stream for name, data in FILES.items() for stream in stage_file(data, name)]
    assert staged.streams == tuple(one_by_one)
    assert [stream.role for stream in staged.streams] == ["system", "reference", "system"]
    assert [stream.name for stream in staged.streams] == ["Online-A", "A",
                                                          "Syst\u00e8me-\u00e9tendu"]
    [error] = staged.errors  # the binary file is left out, the others stay
    assert "wmt/binary.de" in str(error)
    assert staged.files == 4
