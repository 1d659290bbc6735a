"""The learned extra's libraries (torch, transformers), imported on first use with the Hugging
Face hub offline, and torch's thread count set from the machine.

``import bleu`` and every page that computes no learned metric never load torch. Before the first
import, ``HF_HUB_OFFLINE`` and ``TRANSFORMERS_OFFLINE`` are set, so that nothing reaches the
network even where a call does not pass ``local_files_only`` itself (every model is resolved to a
folder on disk first anyway).
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
#: unified COMET models (xCOMET, CometKiwi) run through unbabel-comet, in an environment of its own
UNIFIED_EXTRA_COMMAND = "pip install 'bleu-explorer[learned-unified]'"
_OFFLINE = ("HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE", "HF_DATASETS_OFFLINE")


def go_offline() -> None:
    """Tell the Hugging Face libraries never to download (read at their import)."""
    if "huggingface_hub" not in sys.modules:
        for variable in _OFFLINE:
            os.environ[variable] = "1"


def load(module: str, metric: str, command: str = EXTRA_COMMAND) -> ModuleType:
    """``module`` (``torch``, ``transformers``...), or MissingExtraError naming the extra; the
    libraries' import-time warnings are not the user's business, and the root logger is left as
    it was (some libraries call ``logging.basicConfig`` at import)."""
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
        ).format(metric=metric, command=command, module=error.name or module)) from error
    finally:
        for handler in root.handlers[:]:
            if handler not in handlers:
                root.removeHandler(handler)
        root.setLevel(level)


def library_version(distribution: str) -> str:
    """``name version`` of an installed distribution (part of signatures and cache keys)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return f"{distribution} {version(distribution)}"
    except PackageNotFoundError:
        return f"{distribution} ?"


def machine_threads() -> int:
    """The CPU cores this process may run on (its affinity, not the whole machine's count)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def load_transformers(metric: str) -> ModuleType:
    """transformers, its loading reports and progress bars off (the page says what loads)."""
    transformers = load("transformers", metric)
    transformers.utils.logging.set_verbosity_error()
    transformers.utils.logging.disable_progress_bar()
    return transformers


def torch_for(metric: str) -> ModuleType:
    """torch, with its intra-op threads set once to the cores this process may use (torch's own
    default counts physical cores of the whole machine, which a container or a pinned process
    does not have)."""
    torch = load("torch", metric)
    if not getattr(torch, "_bleu_threads_set", False):
        wanted = int(os.environ.get("BLEU_EXPLORER_TORCH_THREADS") or machine_threads())
        torch.set_num_threads(max(1, wanted))
        torch._bleu_threads_set = True  # type: ignore[attr-defined]
    return torch
