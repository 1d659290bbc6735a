"""The replicas' systemd unit and environment file (deploy/systemd/): systemd's own check of the
unit, its command line against ``bleu-explorer app``'s parser, and the environment variables
against what the app and Streamlit read. The replica tests start replicas with the same
command and environment; systemd itself does not run here."""

from __future__ import annotations

import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from deploy_servers import UNIT, UNIT_EXECUTABLE, environment_file, unit_settings

from bleu.workspace.config import DATABASE_VARIABLE, SHARED_VARIABLE
from bleu_app import launch


def test_systemd_accepts_the_unit(tmp_path: Path) -> None:
    """``systemd-analyze verify`` on an instance of the template, its command pointed at this
    venv's ``bleu-explorer`` (the unit's /opt path is docs/deploy.md's venv, absent here)."""
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        pytest.fail("systemd-analyze not found: apt-get install -y systemd (scripts/test.sh "
                    "does it as root).", pytrace=False)
    text = UNIT.read_text(encoding="utf-8")
    assert text.count(UNIT_EXECUTABLE) == 1
    here = str(Path(sys.executable).with_name("bleu-explorer"))
    (tmp_path / UNIT.name).write_text(text.replace(UNIT_EXECUTABLE, here), encoding="utf-8")
    done = subprocess.run([analyze, "verify", "--man=no", "bleu-explorer@8501.service"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=60,
                          stdin=subprocess.DEVNULL, check=False)
    assert (done.returncode, done.stdout + done.stderr) == (0, "")


@pytest.mark.parametrize("port", [8501, 8502, 9000])
def test_each_instance_serves_its_port_on_this_machine(port: int) -> None:
    (command,) = unit_settings()["ExecStart"]
    line = shlex.split(command.replace("%i", str(port)))
    assert line[:2] == [UNIT_EXECUTABLE, "app"]
    args = launch.parse(line[2:])
    assert (args.port, args.host, args.db, args.shared) == (port, "127.0.0.1", None, False)


def test_the_environment_file_names_what_the_app_and_streamlit_read() -> None:
    variables = environment_file()
    assert set(variables) == {DATABASE_VARIABLE, SHARED_VARIABLE,
                              "STREAMLIT_SERVER_COOKIE_SECRET"}
    assert variables[DATABASE_VARIABLE].startswith("postgresql://")
    assert variables[SHARED_VARIABLE] == "1"
    secret = "0123abcd" * 8
    shown = subprocess.run(
        [sys.executable, "-c", "from streamlit import config; "
         "print(config.get_option('server.cookieSecret'))"],
        env={"PATH": "/usr/bin:/bin", "STREAMLIT_SERVER_COOKIE_SECRET": secret},
        capture_output=True, text=True, timeout=60, check=False)
    assert shown.stdout.strip() == secret, shown.stderr
