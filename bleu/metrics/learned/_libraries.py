"""The learned extra's libraries, imported on first use with the Hugging Face hub offline.

``import bleu`` and every page that computes no learned metric never load torch. Before the first
import of the libraries, ``HF_HUB_OFFLINE`` and ``TRANSFORMERS_OFFLINE`` are set, so that nothing
inside COMET, BERTScore or transformers reaches the network even where it does not pass
``local_files_only`` itself (we also resolve every model to a folder on disk first).
"""

from __future__ import annotations

import logging
import os
import sys
import warnings
from importlib import import_module
from types import ModuleType

from ...errors import MissingExtraError
from ...i18n import tr

EXTRA_COMMAND = "pip install 'bleu-explorer[learned]'"
_OFFLINE = ("HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE", "HF_DATASETS_OFFLINE")


def go_offline() -> None:
    """Tell the Hugging Face libraries never to download (read at their import)."""
    if "huggingface_hub" not in sys.modules:
        for variable in _OFFLINE:
            os.environ[variable] = "1"


def load(module: str, metric: str) -> ModuleType:
    """``module`` (``comet``, ``bert_score``, ``torch``...), or MissingExtraError naming the
    extra; the libraries' import-time deprecation warnings are not the user's business, and
    the root logger is left as it was (COMET's import calls ``logging.basicConfig``, which made
    every message of the command line print twice)."""
    go_offline()
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return import_module(module)
    except ImportError as error:
        raise MissingExtraError(tr(
            "{metric} needs the 'learned' extra, which is not installed: {command} "
            "(missing module: {module})."
        ).format(metric=metric, command=EXTRA_COMMAND, module=error.name or module)) from error
    finally:
        for handler in root.handlers[:]:
            if handler not in handlers:
                root.removeHandler(handler)
        root.setLevel(level)


def library_version(distribution: str) -> str:
    """``name version`` of an installed distribution (part of what cached scores are keyed on)."""
    from importlib.metadata import version

    return f"{distribution} {version(distribution)}"
