"""Every bad input of the catalogue (tests/io/test_bad_inputs.py) uploaded through the app:
the user reads the core's message, and what was loaded before stays loaded and scored.

tests/app/test_app.py covers, on real WMT17 files, mismatched counts, an empty file, Latin-1, a
PNG header, a BOM, CRLF and duplicate names; this file runs the whole catalogue on small files.
"""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path

import pytest
import sacrebleu
from conftest import DATA_DIR, read_lines
from streamlit.testing.v1 import AppTest

REPO = Path(__file__).resolve().parents[2]
APP = REPO / "app.py"
if str(REPO) not in sys.path:  # app.py imports its page glue from ``views``
    sys.path.insert(0, str(REPO))
if str(REPO / "tests" / "io") not in sys.path:  # the catalogue imports its neighbour hostile
    sys.path.insert(0, str(REPO / "tests" / "io"))


def _catalogue_module():
    """tests/io/test_bad_inputs.py, loaded by path (it holds the catalogue and the loader)."""
    path = REPO / "tests" / "io" / "test_bad_inputs.py"
    spec = importlib.util.spec_from_file_location("bad_inputs_catalogue", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


catalogue = _catalogue_module()
#: entries a person can produce in the app (there a column is picked from the file's own header)
ENTRIES = [entry for entry in catalogue.CATALOGUE if entry.key != "tsv_no_column"]
GOOD = ("good.de", catalogue.GOOD.encode())
REFERENCE = ("ref.de", "".join(f"{s}\n" for s in catalogue.REFERENCE.segments).encode())



@pytest.fixture
def at() -> AppTest:
    """The app with GOOD and REFERENCE uploaded and scored."""
    app = AppTest.from_file(str(APP), default_timeout=120)
    app.run()
    upload(app, systems=[GOOD], references=[REFERENCE])
    assert bleu_by_system(app) == pytest.approx({"good": good_bleu()})
    return app


def good_bleu() -> float:
    return sacrebleu.corpus_bleu(catalogue.GOOD.splitlines(),
                                 [list(catalogue.REFERENCE.segments)]).score


def upload(app: AppTest, systems=None, references=None) -> AppTest:
    for key, files in (("systems_upload", systems), ("references_upload", references)):
        if files is not None:
            app.file_uploader(key=key).set_value([(n, d, "text/plain") for n, d in files])
    app.run()
    assert not app.exception, app.exception
    return app


def bleu_by_system(app: AppTest) -> dict[str, float]:
    frame = app.dataframe[0].value
    return dict(zip(frame["system"], frame["BLEU"], strict=True))


def plain(text: str) -> str:
    """A message without the Markdown escapes the app puts before special characters."""
    return re.sub(r"\\(.)", r"\1", text)


def shown(app: AppTest, kind: str) -> list[str]:
    return [plain(element.value) for element in getattr(app, kind)]


@pytest.mark.parametrize("entry", ENTRIES, ids=lambda entry: entry.key)
def test_bad_input_gives_its_message_and_keeps_the_data(at, entry):
    files = [GOOD, (entry.name, entry.data), *entry.also]
    expected = catalogue.load(files, entry.options)
    upload(at, systems=files)
    if entry.outcome == "refused":
        assert expected.error is not None
        suffix = catalogue.APP_SUFFIX.format(label="Uploaded files")
        assert shown(at, "error") == [f"{expected.error} {suffix}"]
        assert bleu_by_system(at) == pytest.approx({"good": good_bleu()})  # nothing lost
        assert list(at.session_state["dataset"].systems) == ["good"]
    else:
        assert expected.error is None and not shown(at, "error")
        assert sorted(bleu_by_system(at)) == sorted(expected.systems)  # ranked by score
        # a table's or JSONL file's stream is named by its column too ("out.jsonl [hyp]: ...")
        warnings = [re.sub(r"^(\S+) \[[^\]]*\]: ", r"\1: ", text) for text in shown(at, "warning")]
        for note in expected.notes:
            assert note in warnings, (note, warnings)
        assert bleu_by_system(at)["good"] == pytest.approx(good_bleu())


def test_html_and_markdown_in_names_stay_literal(at):
    name = '<img src=x onerror="alert(1)"> **b** _i_ $x^2$.de'
    upload(at, systems=[GOOD, (name, catalogue.GOOD.encode())])
    system = name[:-len(".de")]
    assert list(bleu_by_system(at)) == ["good", system]
    assert list(at.session_state["dataset"].systems) == ["good", system]
    # the System names box shows the file name as its label (escaped Markdown) and the name
    box = next(b for b in at.text_input if b.key.startswith("system_name_1_"))
    assert box.value == system and plain(box.label) == name
    assert box.label != name  # the label was escaped, so Markdown shows it as typed


def test_one_line_files_load_and_score():
    app = AppTest.from_file(str(APP), default_timeout=120)
    app.run()
    hyp, ref = "Der Hund bellt laut .", "Der Hund bellt ."
    upload(app, systems=[("one.de", hyp.encode())], references=[("ref.de", ref.encode())])
    assert shown(app, "success")[0].startswith("Loaded 1 system(s) and 1 reference(s), 1 "
                                               "segments each")
    assert bleu_by_system(app) == pytest.approx(
        {"one": sacrebleu.corpus_bleu([hyp], [[ref]]).score})


def test_a_refused_reference_keeps_the_data(at):
    """A bad file in the references uploader is refused the same way."""
    entry = catalogue.BY_KEY["mostly_nul"]
    upload(at, references=[(entry.name, entry.data)])
    [error] = shown(at, "error")
    assert error.startswith(entry.expect[0])
    assert bleu_by_system(at) == pytest.approx({"good": good_bleu()})


def test_a_300k_line_upload_is_read_and_scored():
    """WMT17 en-de C-3MA and its reference (tests/data's 100 lines) repeated to 300,400 lines:
    the dashboard shows sacrebleu's score of one copy (every count scales by the copies). About
    40 s here; the same run on the whole set, timed, with its memory, is
    benchmarks/bench_upload_300k.py."""
    wmt17 = DATA_DIR / "wmt17_newstest2017_en-de"
    hyp, ref = (wmt17 / "newstest2017.C-3MA.4959.en-de.de", wmt17 / "newstest2017.en-de.ref.de")
    copies = 300_400 // len(read_lines(hyp))
    app = AppTest.from_file(str(APP), default_timeout=600)
    app.run()
    upload(app, systems=[("c3ma.de", hyp.read_bytes() * copies)],
           references=[("ref.de", ref.read_bytes() * copies)])
    assert shown(app, "success") == ["Loaded 1 system(s) and 1 reference(s), 300,400 segments "
                                     "each, from the uploaded files."]
    def lines(path: Path) -> list[str]:  # split on LF only, as the reader does
        return path.read_text(encoding="utf-8").split("\n")[:-1]

    one = sacrebleu.corpus_bleu(lines(hyp), [lines(ref)]).score
    assert bleu_by_system(app) == pytest.approx({"c3ma": one}, abs=1e-9)
