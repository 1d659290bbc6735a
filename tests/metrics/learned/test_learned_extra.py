"""Without the learned extra the package still imports, and a scorer says which extra to
install; importing bleu.metrics.learned loads no torch (checked in a fresh interpreter)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from bleu.errors import MissingExtraError
from bleu.metrics.learned import BertScoreScorer, MetricXScorer, load_comet


@pytest.mark.parametrize("scorer", [load_comet, BertScoreScorer, MetricXScorer])
@pytest.mark.parametrize("module", ["torch", "transformers"])
def test_a_missing_library_names_the_extra(scorer: type, module: str,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, module, None)  # what an import of an absent module meets
    with pytest.raises(MissingExtraError) as caught:
        scorer("any-model")
    message = str(caught.value)
    assert "pip install 'bleu-explorer[learned]'" in message and module in message


def test_importing_the_learned_package_loads_no_library() -> None:
    code = ("import sys, json, bleu.metrics.learned\n"
            "print(json.dumps(sorted(sys.modules)))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120, check=True)
    modules = set(json.loads(done.stdout))
    assert not modules & {"torch", "comet", "bert_score", "transformers", "huggingface_hub",
                          "safetensors", "pandas", "streamlit"}
