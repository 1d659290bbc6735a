"""What a process pays to start: ``import bleu``, the command line's argument parsing and a small
one-file run load no heavy library they do not use (checked in a fresh interpreter through
``sys.modules``; timing is the benchmarks' job, not the tests')."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from conftest import REPO_DATA

#: libraries a page needs, never a script that imports the package or scores one small file
HEAVY = ("pandas", "altair", "streamlit", "pyarrow", "pyarrow.compute", "numba", "scipy",
         "sacrebleu")
WMT22 = REPO_DATA / "wmt22_generaltest2022_en-de"


def loaded_after(code: str) -> set[str]:
    """The modules a fresh interpreter holds after running ``code`` (stdout is the code's own)."""
    probe = (f"{code}\nimport json, sys\n"
             "sys.__stderr__.write('MODULES' + json.dumps(sorted(sys.modules)))")
    finished = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                              timeout=120, check=True)
    return set(json.loads(finished.stderr.rsplit("MODULES", 1)[1]))


#: the packages of what pages show: a script that only scores never loads them
PAGE_PACKAGES = ("bleu.explore", "bleu.teaching", "bleu.charts")


def test_import_bleu_loads_nothing_heavy() -> None:
    modules = loaded_after("import bleu")
    assert not modules & set(HEAVY)
    assert not {name for name in modules if name.startswith(PAGE_PACKAGES)}
    assert "numpy" not in modules  # the engine loads on first use


def test_the_lazy_package_still_offers_its_api() -> None:
    modules = loaded_after("import bleu\nprint(bleu.corpus_bleu(['a b c d'], [['a b c d']]).score)")
    assert "numpy" in modules and not modules & set(HEAVY)


@pytest.mark.parametrize("argv", [["--help"], ["--version"]])
def test_parsing_arguments_loads_no_engine(argv: list[str]) -> None:
    modules = loaded_after(f"from bleu.cli import main\ntry:\n    main({argv!r})\n"
                           "except SystemExit:\n    pass")
    assert not modules & {*HEAVY, "numpy"}


def test_scoring_one_small_file_loads_no_page_library() -> None:
    hyp = WMT22 / "generaltest2022.en-de.hyp.PROMT.de"
    ref = WMT22 / "generaltest2022.en-de.ref.A.de"
    modules = loaded_after(f"from bleu.cli import main\nmain([{str(ref)!r}, '-i', {str(hyp)!r}])")
    assert not modules & set(HEAVY)
    assert not {name for name in modules if name.startswith(PAGE_PACKAGES)}


def _paired_run_in_fresh_process(environment: dict[str, str]) -> tuple[set[str], list[int]]:
    """The modules loaded by a ``--paired-bs`` run, and OpenBLAS's thread counts after it."""
    refs = str(WMT22 / "generaltest2022.en-de.ref.A.de")
    systems = [str(WMT22 / f"generaltest2022.en-de.hyp.{name}.de")
               for name in ("PROMT", "JDExploreAcademy")]
    code = (f"import os\nos.environ.update({environment!r})\nfrom bleu.cli import main\n"
            f"main([{refs!r}, '-i', *{systems!r}, '--paired-bs', '--paired-bs-n', '50'])\n"
            "import sys\nloaded = 'threadpoolctl' in sys.modules\n"
            "from threadpoolctl import threadpool_info\n"
            "print('THREADS', loaded, [i['num_threads'] for i in threadpool_info()"
            " if i['internal_api'] == 'openblas'])")
    finished = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                              timeout=120, check=True, env={
                                  key: value for key, value in os.environ.items()
                                  if key != "OPENBLAS_NUM_THREADS"})
    loaded, counts = finished.stdout.rsplit("THREADS", 1)[1].split(" ", 2)[1:]
    return {"threadpoolctl"} if loaded == "True" else set(), json.loads(counts)


def test_command_line_gives_blas_one_thread_without_threadpoolctl() -> None:
    loaded, counts = _paired_run_in_fresh_process({})
    assert loaded == set()  # the resampling's single-threaded BLAS came from the environment
    assert counts and set(counts) == {1}


def test_command_line_respects_a_blas_thread_count_already_set() -> None:
    loaded, counts = _paired_run_in_fresh_process({"OPENBLAS_NUM_THREADS": "2"})
    assert loaded == {"threadpoolctl"}  # the user's count stands; the tests limit it themselves
    assert counts and set(counts) == {2}
