"""A folder nobody may write, even when the tests run as root (as in CI, where file modes alone
stop nobody): its modes take write access away, and a process started by ``run_read_only`` runs
without the capabilities that let root ignore them (``setpriv`` drops CAP_DAC_OVERRIDE and
CAP_DAC_READ_SEARCH, which unprivileged containers allow; a mount namespace would need
CAP_SYS_ADMIN). Without setpriv as root the tests FAIL saying so: they never skip."""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

import pytest

_DROP = "-dac_override,-dac_read_search"


@contextmanager
def read_only_folder(folder: Path) -> Iterator[Path]:
    """``folder`` and its files made read-only (r-x, r--) for the block, then writable again."""
    files = [path for path in folder.iterdir() if path.is_file()]
    for path in files:
        path.chmod(stat.S_IRUSR | stat.S_IRGRP | stat.S_IROTH)
    folder.chmod(stat.S_IRUSR | stat.S_IXUSR | stat.S_IRGRP | stat.S_IXGRP | stat.S_IROTH
                 | stat.S_IXOTH)
    try:
        yield folder
    finally:
        folder.chmod(stat.S_IRWXU)
        for path in files:
            path.chmod(stat.S_IRUSR | stat.S_IWUSR)


def _prefix() -> list[str]:
    if os.geteuid() != 0:
        return []
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        pytest.fail("The tests run as root, who ignores file modes, and setpriv (util-linux) "
                    "is missing to run the read-only check without that privilege: "
                    "apt-get install -y util-linux.", pytrace=False)
    return [setpriv, f"--inh-caps={_DROP}", f"--bounding-set={_DROP}", "--"]


def run_read_only(arguments: Sequence[str], timeout: float = 180) -> subprocess.CompletedProcess:
    """``python ARGUMENTS`` in a process that file modes stop (see the module's docstring)."""
    return subprocess.run([*_prefix(), sys.executable, *arguments], capture_output=True,
                          text=True, stdin=subprocess.DEVNULL, timeout=timeout, check=False)
