"""``bleu-explorer --save-workspace`` / ``--workspace``: what is saved scores as sacrebleu scores
the files it came from."""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path

import pytest
import sacrebleu
from conftest import DATA_DIR

from bleu.cli import main
from bleu.workspace import WorkspaceStore
from bleu.workspace.model import new_edit_token

REPO = Path(__file__).resolve().parents[2]
WMT17 = DATA_DIR / "wmt17_newstest2017_en-de"
REF = WMT17 / "newstest2017.en-de.ref.de"
SYSTEMS = {name: WMT17 / f"newstest2017.{name}.en-de.de" for name in
           ("C-3MA.4959", "FBK.4870", "KIT.4950")}


def lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").split("\n")[:-1]


def sacrebleu_score(system: str, **options) -> str:
    return f"{sacrebleu.corpus_bleu(lines(SYSTEMS[system]), [lines(REF)], **options).score:.1f}"


@pytest.fixture
def database(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "cli.sqlite3"
    monkeypatch.setenv("BLEU_EXPLORER_DB", str(path))
    return path


def run(capsys: pytest.CaptureFixture, *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_save_then_score_from_the_workspace(database: Path, capsys) -> None:
    status, out, err = run(capsys, str(REF), "-i", str(SYSTEMS["C-3MA.4959"]),
                           str(SYSTEMS["FBK.4870"]), "--save-workspace", "wmt17", "-f", "json",
                           "-lc")
    assert status == 0, err
    assert "Saved workspace 'wmt17'" in err and str(database) in err
    direct = [row["BLEU"] for row in json.loads(out)]
    expected = [sacrebleu_score(name, lowercase=True) for name in ("C-3MA.4959", "FBK.4870")]
    assert direct == expected

    store = WorkspaceStore(database)
    (info,) = store.list()
    saved = store.load(info.id)
    (secret,) = re.findall(r"Its edit secret is ([\w-]+):", err)  # for the app's sidebar
    assert store.editable({info.id: secret}) == {info.id}
    assert list(saved.dataset.systems) == ["newstest2017.C-3MA.4959.en-de",
                                           "newstest2017.FBK.4870.en-de"]
    assert list(saved.dataset.references[0].segments) == lines(REF)
    assert saved.options["lowercase"] is True and saved.options["tokenize"] == "13a"

    # by name: the saved references and systems, scored again
    status, out, err = run(capsys, "--workspace", "wmt17", "-f", "json", "-lc")
    assert status == 0, err
    rows = json.loads(out)
    assert [row["system"] for row in rows] == list(saved.dataset.systems)
    assert [row["BLEU"] for row in rows] == expected
    # by id: another system file against the workspace's references
    status, out, err = run(capsys, "--workspace", info.id, "-i", str(SYSTEMS["KIT.4950"]), "-b")
    assert status == 0, err
    assert out.strip() == sacrebleu_score("KIT.4950")


def test_an_id_or_name_that_starts_with_a_dash(database: Path, capsys) -> None:
    """About 1 in 64 ids that older versions made start with '-' (secrets.token_urlsafe), and a
    name may: ``--workspace -Zx3...`` and ``--save-workspace -draft`` take them as values."""
    status, _, err = run(capsys, str(REF), "-i", str(SYSTEMS["C-3MA.4959"]),
                         "--save-workspace", "-draft")
    assert status == 0, err
    store = WorkspaceStore(database)
    (info,) = store.list()
    assert info.name == "-draft"
    old_id = "-Zx3" + info.id[4:]  # the same workspace under an id as older versions made it
    store.save(dataclasses.replace(store.load(info.id), id=old_id), token=new_edit_token())
    expected = sacrebleu_score("C-3MA.4959")
    for given in (["--workspace", old_id], [f"--workspace={old_id}"], ["--works", old_id]):
        status, out, err = run(capsys, *given, "-b")
        assert status == 0, (given, err)
        assert out.strip() == expected
    status, out, err = run(capsys, "--workspace", old_id, "-i", str(SYSTEMS["KIT.4950"]), "-b")
    assert status == 0 and out.strip() == sacrebleu_score("KIT.4950"), err
    # an option right after --workspace is still an option: argparse's own message
    with pytest.raises(SystemExit) as stop:
        run(capsys, "--workspace", "-i", str(SYSTEMS["KIT.4950"]))
    assert stop.value.code == 2
    assert "argument --workspace: expected one argument" in capsys.readouterr().err


def test_workspace_errors_say_what_is_wrong(database: Path, capsys) -> None:
    status, _, err = run(capsys, "--workspace", "nothing-saved-yet")
    assert status == 1
    assert "No workspace has the id or name 'nothing-saved-yet'" in err
    run(capsys, str(REF), "-i", str(SYSTEMS["KIT.4950"]), "--save-workspace", "kit")
    status, _, err = run(capsys, str(REF), "--workspace", "kit", "-i", str(SYSTEMS["KIT.4950"]))
    assert status == 1 and "--workspace kit gives the references" in err
    short = database.parent / "short.de"
    short.write_text("one line\n", encoding="utf-8")
    status, _, err = run(capsys, str(REF), "-i", str(short), "--save-workspace", "bad")
    lines = len(REF.read_bytes().splitlines())
    assert status == 1 and f"has {lines} lines, but" in err
    assert [info.name for info in WorkspaceStore(database).list()] == ["kit"]


def test_a_database_error_shows_the_location_without_its_secrets(
        monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    monkeypatch.setenv("BLEU_EXPLORER_DB",
                       "postgresql://lab:p@ssw0rd@127.0.0.1:1/postgres?password=hunter2")
    status, _, err = run(capsys, "--workspace", "anything")
    assert status == 1
    assert "The workspace database postgresql://lab:***@" in err and "password=***" in err
    assert "hunter2" not in err and "ssw0rd" not in err
