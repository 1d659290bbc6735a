"""Hostile uploads for the tests (and the measurements in docs/bad_inputs.md), built in
milliseconds: archive bombs from repeated compressed streams (gzip, bzip2 and xz readers take a
stream that is many streams one after the other), a million empty tar members, damaged,
encrypted and Deflate64 zips, a tar with one flipped header byte; and a runner that reads one
in a separate process under an address-space limit, reporting its peak memory and time, so
that a fix that fails cannot take the machine down.
"""

from __future__ import annotations

import bz2
import gzip
import io
import lzma
import re
import struct
import subprocess
import sys
import tarfile
import time
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

MIB = 2**20
#: one MiB of zeros, compressed once by each method
_COMPRESS: dict[str, Callable[[bytes], bytes]] = {
    "gz": lambda data: gzip.compress(data, 9, mtime=0),
    "bz2": lambda data: bz2.compress(data, 9),
    "xz": lambda data: lzma.compress(data, preset=1),
}


@cache
def _zeros(method: str, mebibytes: int) -> bytes:
    return _COMPRESS[method](b"\0" * (mebibytes * MIB))


def compressed_zeros(method: str, mebibytes: int) -> bytes:
    """``mebibytes`` MiB of zeros as ``method`` streams one after the other (16 MiB each)."""
    block = _zeros(method, 16)
    whole, rest = divmod(mebibytes, 16)
    return block * whole + (_zeros(method, rest) if rest else b"")


def header(name: str, size: int) -> bytes:
    """A tar member's header (GNU format: sizes of any length) for a regular file."""
    info = tarfile.TarInfo(name)
    info.size = size
    return info.tobuf(format=tarfile.GNU_FORMAT)


def zero_bomb(method: str, gibibytes: int) -> bytes:
    """A tar of one member of ``gibibytes`` GiB of zeros (padding and end blocks are zeros too),
    compressed with ``method``: a few KB to a few MB."""
    size = gibibytes * 1024 * MIB
    return _COMPRESS[method](header("zeros.de", size)) + compressed_zeros(method, size // MIB + 1)


def many_big_members(method: str, members: int, mebibytes: int) -> bytes:
    """A tar of ``members`` members of ``mebibytes`` MiB of zeros each."""
    one = _COMPRESS[method](header("m.de", mebibytes * MIB)) + compressed_zeros(method,
                                                                                 mebibytes)
    return one * members + compressed_zeros(method, 1)


def empty_members(method: str, count: int) -> bytes:
    """A tar of ``count`` empty members (``count`` a multiple of 1,000), compressed: 1,000
    headers compressed once, repeated."""
    thousand = b"".join(header(f"e{k}.de", 0) for k in range(1000))
    return _COMPRESS[method](thousand) * (count // 1000) + _COMPRESS[method](b"\0" * 1024)


def plain_tar(files: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w") as archive:
        for name, data in files.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
    return buffer.getvalue()


def flipped_header(files: dict[str, bytes], member: int) -> bytes:
    """A plain tar of ``files`` with one byte of member ``member``'s header (0-based) flipped:
    its checksum no longer matches."""
    data = bytearray(plain_tar(files))
    offset = 0
    for _ in range(member):
        size = int(data[offset + 124:offset + 136].rstrip(b"\0 ") or b"0", 8)
        offset += 512 + -(-size // 512) * 512
    data[offset + 5] ^= 0x20  # a letter of the name changes case
    return bytes(data)


def zip_of(files: dict[str, bytes], method: int = zipfile.ZIP_DEFLATED) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", method) as archive:
        for name, data in files.items():
            archive.writestr(name, data)
    return buffer.getvalue()


def _patch_zip_headers(data: bytes, patch: Callable[[bytearray, int, int], None]) -> bytes:
    """Every local (PK\\3\\4) and central (PK\\1\\2) header patched: ``patch(data, offset of
    the flags field, offset of the method field)``."""
    out = bytearray(data)
    for match in re.finditer(rb"PK\x03\x04", data):
        patch(out, match.start() + 6, match.start() + 8)
    for match in re.finditer(rb"PK\x01\x02", data):
        patch(out, match.start() + 8, match.start() + 10)
    return bytes(out)


def encrypted_zip(files: dict[str, bytes]) -> bytes:
    """A zip whose entries say they are encrypted (the flag zip's encryption sets)."""
    def encrypt(out: bytearray, flags: int, _method: int) -> None:
        struct.pack_into("<H", out, flags, struct.unpack_from("<H", out, flags)[0] | 0x1)
    return _patch_zip_headers(zip_of(files, zipfile.ZIP_STORED), encrypt)


def deflate64_zip(files: dict[str, bytes]) -> bytes:
    """A zip whose entries say they are compressed with Deflate64 (method 9), as Windows'
    Explorer writes files over 2 GB."""
    def method(out: bytearray, _flags: int, field: int) -> None:
        struct.pack_into("<H", out, field, 9)
    return _patch_zip_headers(zip_of(files), method)


def corrupt_zip(files: dict[str, bytes]) -> bytes:
    """A deflated zip with bytes of its first entry's compressed data overwritten."""
    data = bytearray(zip_of(files))
    start = 30 + struct.unpack_from("<H", data, 26)[0] + struct.unpack_from("<H", data, 28)[0]
    data[start + 2:start + 10] = b"\xff" * 8
    return bytes(data)


def damaged_tar_xz(files: dict[str, bytes]) -> bytes:
    """A .tar.xz with bytes in the middle of its compressed data overwritten."""
    data = bytearray(lzma.compress(plain_tar(files)))
    middle = len(data) // 2
    data[middle:middle + 16] = b"\x55" * 16
    return bytes(data)


# --------------------------------------------------------------- reading one in a cage

@dataclass(frozen=True)
class Bounded:
    """What reading took in its own process: exit status, its last line of output (the
    outcome), peak resident memory (MiB) and wall time (s)."""

    status: int
    outcome: str
    peak_mib: float
    seconds: float


#: the reader run in the cage: RLIMIT_AS and RLIMIT_CPU first, then the call, then the outcome
#: and VmHWM (this process image's own peak resident memory)
_CAGE = """
import re, resource, sys
limit, cpu = int(sys.argv[1]) * 2**20, int(sys.argv[4])
resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu))
data = open(sys.argv[2], "rb").read()
name = sys.argv[3]
{setup}
try:
    outcome = {call}
except Exception as error:
    outcome = type(error).__name__ + ": " + str(error)
with open("/proc/self/status") as status_file:
    peak = re.search(r"VmHWM:\\s*(\\d+) kB", status_file.read()).group(1)
print(str(outcome).replace("\\n", " "))
print("PEAK_RSS_KIB", peak)
"""
REPO = Path(__file__).resolve().parents[2]


def read_caged(data: bytes, name: str, tmp_path: Path, *, call: str, setup: str = "",
               address_space_mib: int = 1024, cpu_seconds: int = 30,
               timeout: float = 300) -> Bounded:
    """Run ``call`` (an expression of ``data`` and ``name``) on ``data`` saved in ``tmp_path``,
    in a Python process limited to ``address_space_mib`` of address space and ``cpu_seconds``
    of CPU time (a bound on work, whatever the machine's load: a reader that decompresses a
    bomb whole is killed, SIGXCPU, and its status is not 0)."""
    path = tmp_path / "upload.bin"
    path.write_bytes(data)
    script = _CAGE.format(setup=setup, call=call)
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", script, str(address_space_mib), str(path), name,
                           str(cpu_seconds)],
                          capture_output=True, text=True, timeout=timeout, cwd=REPO)
    seconds = time.perf_counter() - started
    lines = done.stdout.strip().splitlines()
    peak = next((int(line.split()[1]) for line in lines if line.startswith("PEAK_RSS_KIB")),
                0)
    outcome = next((line for line in lines if not line.startswith("PEAK_RSS_KIB")),
                   done.stderr.strip().splitlines()[-1] if done.stderr.strip() else "")
    return Bounded(done.returncode, outcome, peak / 1024, seconds)


ARCHIVE_CALL = ("[f.name for f in __import__('bleu.io.archive', fromlist=['x'])"
                ".archive_files(data, name, max_files=1100)]")
