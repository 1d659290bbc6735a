"""The app as a user gets it from ``pip install``: a wheel built from the repository's files,
installed with its dependencies in a fresh venv outside the repository, ``bleu-explorer app``
started from an empty folder, its health checked and the dashboard drawn in Chromium.

Nothing of the repository may be used: the venv's ``bleu`` and ``bleu_app`` are its own, no
``.pth`` file or install record points back, and an audit hook installed in the venv records
every file and folder the server opens or lists: none may lie in the repository, and the
sample it shows is read from the venv.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from deploy_servers import Process, log_tail
from harness import REPO, VIEWPORT, free_port, results_grid, wait_all_charts, wait_idle
from playwright.sync_api import Browser

pytestmark = pytest.mark.deploy

#: written into the fresh venv's site-packages (and loaded by a .pth file there): records what
#: the server opens or lists inside the repository, and where it reads the sample from
AUDIT_HOOK = '''
import os, sys
_LOG = os.environ.get("BLEU_TEST_AUDIT_LOG")
if _LOG:
    _REPO = os.environ["BLEU_TEST_REPO"].rstrip(os.sep) + os.sep
    _output = open(_LOG, "a", encoding="utf-8", buffering=1)

    def _hook(event, args):
        if event not in ("open", "os.listdir", "os.scandir") or not args:
            return
        path = args[0]
        if isinstance(path, bytes):
            path = os.fsdecode(path)
        if not isinstance(path, str):
            return  # a file descriptor
        path = os.path.abspath(path)
        if path.startswith(_REPO):
            _output.write("repository " + path + "\\n")
        elif "sample_data" in path:
            _output.write("sample " + path + "\\n")

    sys.addaudithook(_hook)
'''


#: the dependencies' wheels, kept between runs (outside the repository, like pip's own cache)
WHEELHOUSE = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / (
    "bleu-explorer-tests") / "wheelhouse"


def run(command: list[str], *, cwd: Path, timeout: float,
        env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    done = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=timeout, stdin=subprocess.DEVNULL, check=False)
    assert done.returncode == 0, f"{' '.join(command)} failed:\n{done.stdout}{done.stderr}"
    return done


def repository_copy(target: Path) -> Path:
    """The files git would commit (tracked, or new and not ignored), copied: the wheel is built
    from them, never from a build/ folder or an egg-info left in the working tree."""
    listed = run(["git", "-C", str(REPO), "ls-files", "-z", "--cached", "--others",
                  "--exclude-standard"], cwd=REPO, timeout=60).stdout.split("\0")
    for name in filter(None, listed):
        source = REPO / name
        if not source.is_symlink() and not source.exists():
            continue  # deleted in the working tree, not yet in git
        destination = target / name
        destination.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(source, destination, follow_symlinks=False)
    return target


def clean_environment(**extra: str) -> dict[str, str]:
    """This process's environment without what would point Python at the repository."""
    environment = {key: value for key, value in os.environ.items()
                   if key not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV", "PYTHONSTARTUP")}
    return {**environment, **extra}


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh venv (outside the repository) with the wheel and its dependencies installed."""
    folder = tmp_path_factory.mktemp("installed")
    assert not folder.resolve().is_relative_to(REPO)
    source = repository_copy(folder / "source")
    dist = folder / "dist"
    run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(dist), str(source)],
        cwd=folder, timeout=300, env=clean_environment())
    wheels = list(dist.glob("bleu_explorer-*.whl"))
    assert len(wheels) == 1, wheels
    venv = folder / "venv"
    run([sys.executable, "-m", "venv", "--without-pip", str(venv)], cwd=folder, timeout=120)
    # this pip installs into the venv (--python): no pip of its own to set up; no byte-compiling
    # of 800 MB of dependencies, which the server does not need; the dependencies from a folder
    # of wheels kept between runs (pip's own cache keeps nothing on this machine), filled from
    # the package index when it lacks one the wheel requires (the first run: all)
    offline = [sys.executable, "-m", "pip", "--python", str(venv / "bin" / "python"), "install",
               "-q", "--no-compile", "--no-index", "--find-links", str(WHEELHOUSE),
               str(wheels[0])]
    tried = subprocess.run(offline, cwd=folder, env=clean_environment(), capture_output=True,
                           timeout=300, stdin=subprocess.DEVNULL, check=False)
    if tried.returncode != 0:
        run([sys.executable, "-m", "pip", "wheel", "-q", "--find-links", str(WHEELHOUSE), "-w",
             str(WHEELHOUSE), str(wheels[0])], cwd=folder, timeout=300, env=clean_environment())
        for ours in WHEELHOUSE.glob("bleu_explorer-*.whl"):
            ours.unlink()  # the one under test is given by its path
        run(offline, cwd=folder, timeout=300, env=clean_environment())
    return venv


def venv_paths(venv: Path) -> tuple[Path, dict[str, str]]:
    """The venv's site-packages, and where its Python finds bleu and the app (from an empty
    folder, as a user's shell would run it)."""
    empty = venv.parent / "nowhere"
    empty.mkdir(exist_ok=True)
    script = ("import json, sysconfig, bleu, bleu_app; print(json.dumps({'purelib': "
              "sysconfig.get_paths()['purelib'], 'bleu': bleu.__file__, "
              "'bleu_app': bleu_app.__file__, 'sample': str(bleu_app.SAMPLE_DATA.resolve())}))")
    found = json.loads(run([str(venv / "bin" / "python"), "-c", script], cwd=empty,
                           timeout=60, env=clean_environment()).stdout)
    return Path(found.pop("purelib")), found


def test_the_wheel_carries_the_app_the_samples_and_the_license(installed: Path) -> None:
    site, found = venv_paths(installed)
    for name, path in found.items():
        assert Path(path).is_relative_to(site), f"{name} from {path}, not from the venv"
    sample = Path(found["sample"])
    assert sorted(path.name for path in sample.glob("*.hyp.*.de")) == sorted(
        path.name for path in (REPO / "sample_data").glob("*.hyp.*.de"))
    assert not (site / "bleu_app" / "sample_data").is_symlink()  # the files, not a link
    for pointer in [*site.glob("*.pth"), *site.glob("*.dist-info/direct_url.json")]:
        assert str(REPO) not in pointer.read_text(encoding="utf-8"), pointer
    licenses = list(site.glob("bleu_explorer-*.dist-info/licenses/LICENSE"))
    assert [path.read_bytes() for path in licenses] == [(REPO / "LICENSE").read_bytes()]
    wheel = next((installed.parent / "dist").glob("*.whl"))
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
    assert {"bleu_app/app.py", "bleu_app/streamlit.toml", "bleu_app/assets/page_icon.png",
            "bleu_app/views/dashboard.py"} <= names
    assert not any(name.startswith(("tests/", "benchmarks/")) for name in names)


@pytest.mark.browser
def test_bleu_explorer_app_serves_the_dashboard_from_an_empty_folder(
        installed: Path, chromium, tmp_path: Path) -> None:
    site, _ = venv_paths(installed)
    (site / "_bleu_test_audit.py").write_text(AUDIT_HOOK, encoding="utf-8")
    (site / "zz_bleu_test_audit.pth").write_text("import _bleu_test_audit\n", encoding="utf-8")
    audit = tmp_path / "audit.log"
    empty = tmp_path / "empty"
    empty.mkdir()
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    server = Process([str(installed / "bin" / "bleu-explorer"), "app", "--port", str(port),
                      "--db", str(tmp_path / "workspaces.sqlite3")],
                     tmp_path / "server.log", cwd=empty,
                     env=clean_environment(BLEU_TEST_AUDIT_LOG=str(audit),
                                           BLEU_TEST_REPO=str(REPO)))
    server.start()
    try:
        server.wait_healthy(url, timeout=120)

        def dashboard(browser: Browser) -> tuple[list[int], dict[str, float]]:
            context = browser.new_context(viewport=VIEWPORT)
            context.set_default_timeout(90_000)
            try:
                page = context.new_page()
                page.goto(url)
                wait_idle(page, timeout=90_000)
                marks = wait_all_charts(page, at_least=1, timeout=90_000)
                assert page.get_by_test_id("stException").count() == 0
                return marks, results_grid(page)
            finally:
                context.close()

        marks, scores = chromium.run(dashboard)
    finally:
        server.stop()
    assert marks and all(count > 0 for count in marks), f"charts without marks: {marks}"
    systems = {path.name.split(".hyp.")[1][:-len(".de")]
               for path in (REPO / "sample_data").glob("*.hyp.*.de")}
    assert set(scores) == systems, log_tail(tmp_path / "server.log")
    lines = audit.read_text(encoding="utf-8").splitlines() if audit.exists() else []
    from_repository = [line for line in lines if line.startswith("repository ")]
    assert not from_repository, f"the installed app used the repository: {from_repository[:5]}"
    samples = [Path(line.split(" ", 1)[1]) for line in lines if line.startswith("sample ")]
    assert samples, "the audit hook saw no sample file read (is it loaded?)"
    assert all(path.is_relative_to(site / "bleu_app" / "sample_data") for path in samples), (
        samples[:5])
