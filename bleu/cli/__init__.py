"""``bleu-explorer`` / ``python -m bleu``: sacrebleu's command line for BLEU, flags and output;
``bleu-explorer app`` starts the web app (``bleu_app.launch``, loaded only then)."""

from __future__ import annotations

import sys
from collections.abc import Sequence

from . import command

#: the first arguments that start the web app instead of scoring files (a reference file of that
#: name is given as ``./app``)
APP_COMMANDS = ("app", "serve")


def main(argv: Sequence[str] | None = None) -> int:
    """Score files as sacrebleu does, or (``app`` first) start the web app."""
    arguments = list(sys.argv[1:] if argv is None else argv)
    if arguments and arguments[0] in APP_COMMANDS:
        from bleu_app.launch import main as launch  # the app's package: Streamlit, only here

        return launch(arguments[1:])
    return command.main(arguments)


__all__ = ["main"]
