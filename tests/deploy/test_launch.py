"""``bleu-explorer app`` (bleu_app.launch): the Streamlit command line and environment it makes
of its flags, its settings file against the repository's, and the ways to call it (``app``,
``serve``, ``python -m bleu app``, each started as a real server once). The installed app and
replicas are in test_installed_wheel.py and test_replicas.py."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
import tomllib
from deploy_servers import Process
from harness import REPO, free_port
from streamlit import config as streamlit_config

import bleu.cli
from bleu_app import HERE, launch

STREAMLIT_TOML = HERE / "streamlit.toml"
REPOSITORY_CONFIG = REPO / ".streamlit" / "config.toml"


def flag_values(line: list[str]) -> dict[str, str]:
    """``--section.key=value`` flags of a command line as ``{"section.key": "value"}``; a key
    given twice keeps its last value, as Streamlit's option parser does."""
    return dict(item[2:].split("=", 1) for item in line if item.startswith("--"))


def test_the_packaged_settings_are_the_repository_settings() -> None:
    """`streamlit run app.py` in the repository (which reads .streamlit/config.toml) and
    `bleu-explorer app` (which passes bleu_app/streamlit.toml as flags) run with the same
    settings."""
    with STREAMLIT_TOML.open("rb") as packaged, REPOSITORY_CONFIG.open("rb") as repository:
        assert tomllib.load(packaged) == tomllib.load(repository)


def test_every_setting_becomes_a_flag_streamlit_knows() -> None:
    with STREAMLIT_TOML.open("rb") as handle:
        sections = tomllib.load(handle)
    expected = {f"{section}.{key}": str(value).lower() if isinstance(value, bool) else str(value)
                for section, values in sections.items() for key, value in values.items()}
    flags = flag_values(launch.settings_flags())
    assert flags == expected
    known = streamlit_config.get_config_options()
    assert set(flags) <= set(known), f"not Streamlit options: {set(flags) - set(known)}"


def test_defaults_serve_the_packaged_app_on_this_machine_only() -> None:
    line, environment = launch.command([])
    assert line[:5] == [sys.executable, "-m", "streamlit", "run", str(HERE / "server.py")]
    assert Path(line[4]).is_file()
    flags = flag_values(line)
    assert (flags["server.port"], flags["server.address"]) == ("8501", "127.0.0.1")
    assert flags["server.headless"] == "true"  # no e-mail prompt, no browser opened
    assert environment == {}  # the workspaces' defaults: the user's data folder, not shared


@pytest.mark.parametrize(("argv", "port", "host", "environment"), [
    (["--port", "9000"], "9000", "127.0.0.1", {}),
    (["--host", "0.0.0.0", "--port", "80"], "80", "0.0.0.0", {}),
    (["--db", "postgresql://bleu@db.lan/bleu"], "8501", "127.0.0.1",
     {"BLEU_EXPLORER_DB": "postgresql://bleu@db.lan/bleu"}),
    (["--db", "/srv/ws.sqlite3", "--shared"], "8501", "127.0.0.1",
     {"BLEU_EXPLORER_DB": "/srv/ws.sqlite3", "BLEU_EXPLORER_SHARED": "1"}),
    (["--shared", "--port", "8502", "--host", "::1"], "8502", "::1",
     {"BLEU_EXPLORER_SHARED": "1"}),
])
def test_flags_set_the_port_host_and_workspace_environment(
        argv: list[str], port: str, host: str, environment: dict[str, str]) -> None:
    line, changes = launch.command(argv)
    flags = flag_values(line)
    assert (flags["server.port"], flags["server.address"]) == (port, host)
    # the command line's port and address win over the settings file's address
    assert line[-2:] == [f"--server.port={port}", f"--server.address={host}"]
    assert changes == environment


@pytest.mark.parametrize("argv", [["--port", "0"], ["--port", "65536"], ["--port", "http"],
                                  ["--database", "x.sqlite3"]])
def test_bad_flags_stop_with_a_message(argv: list[str],
                                       capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        launch.command(argv)
    assert stopped.value.code == 2
    error = capsys.readouterr().err
    assert error.startswith("usage: bleu-explorer app")
    assert argv[0] in error or "65535" in error


@pytest.mark.parametrize(("argv", "url"), [([], "http://127.0.0.1:8501"),
                                           (["--host", "::", "--port", "8600"],
                                            "http://[::]:8600")])
def test_main_sets_the_environment_says_where_and_becomes_streamlit(
        argv: list[str], url: str, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    started: list[list[str]] = []

    def execv(path: str, line: list[str]) -> None:
        started.append(line)
        raise SystemExit(0)  # where the real execv would never return

    monkeypatch.setattr(os, "execv", execv)
    # set (not deleted) first, so that the test's end restores them: main writes both, and a
    # shared-server flag left behind turns every later test's server into a class server
    monkeypatch.setenv("BLEU_EXPLORER_DB", "before")
    monkeypatch.setenv("BLEU_EXPLORER_SHARED", "0")
    monkeypatch.setenv("BLEU_EXPLORER_MODELS", "")
    with pytest.raises(SystemExit):
        launch.main([*argv, "--db", "/tmp/ws.sqlite3", "--shared"])
    assert started == [launch.command([*argv, "--db", "/tmp/ws.sqlite3", "--shared"])[0]]
    assert (os.environ["BLEU_EXPLORER_DB"], os.environ["BLEU_EXPLORER_SHARED"]) == (
        "/tmp/ws.sqlite3", "1")
    assert capsys.readouterr().err == f"BLEU Explorer on {url}\n"


@pytest.mark.parametrize("name", ["app", "serve"])
def test_the_command_line_hands_app_and_serve_to_the_launcher(
        name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    given: list[list[str]] = []
    monkeypatch.setattr(launch, "main", lambda argv: given.append(list(argv)) or 7)
    assert bleu.cli.main([name, "--port", "9001", "--shared"]) == 7
    assert given == [["--port", "9001", "--shared"]]


@pytest.mark.parametrize("command", [
    [sys.executable, "-m", "bleu", "app", "--help"],
    [str(Path(sys.executable).with_name("bleu-explorer")), "serve", "--help"],
])
def test_the_installed_commands_reach_the_launcher(command: list[str], tmp_path: Path) -> None:
    """``python -m bleu app`` and the console script's ``serve``, as processes, from a folder
    without the repository's settings."""
    done = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, timeout=60,
                          stdin=subprocess.DEVNULL, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("usage: bleu-explorer app [-h] [--port PORT] [--host HOST]")
    for flag in ("--db URL", "--shared"):
        assert flag in done.stdout


@pytest.mark.deploy
def test_python_m_bleu_app_and_bleu_explorer_serve_start_the_server(tmp_path: Path) -> None:
    """Both spellings, as processes from an empty folder: each becomes (execv, same process)
    Streamlit serving the packaged app on its port."""
    ports = [free_port(), free_port()]
    commands = [[sys.executable, "-m", "bleu", "app", "--port", str(ports[0])],
                [str(Path(sys.executable).with_name("bleu-explorer")), "serve",
                 "--port", str(ports[1])]]
    servers = [Process(command, tmp_path / f"server-{k}.log", cwd=tmp_path)
               for k, command in enumerate(commands)]
    try:
        for server in servers:
            server.start()
        for server, port in zip(servers, ports, strict=True):
            server.wait_healthy(f"http://127.0.0.1:{port}")
            assert server.process is not None
            line = Path(f"/proc/{server.process.pid}/cmdline").read_bytes().split(b"\0")
            assert [os.fsdecode(part) for part in line[1:5]] == [
                "-m", "streamlit", "run", str(HERE / "server.py")]
            assert f"--server.port={port}".encode() in line
    finally:
        for server in servers:
            server.stop()
