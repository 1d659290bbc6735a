"""``bleu-explorer`` / ``python -m bleu``: sacrebleu's command line for BLEU, flags and output;
``bleu-explorer app`` starts the web app. The core never imports the app: the app's package
declares its launcher under the entry-point group ``bleu_explorer.commands`` (pyproject.toml),
looked up only when ``app`` is asked for."""

from __future__ import annotations

import sys
from collections.abc import Sequence

from . import command

#: the first arguments that start the web app instead of scoring files (a reference file of that
#: name is given as ``./app``)
APP_COMMANDS = ("app", "serve")
#: where packages declare the commands they add to ``bleu-explorer`` (the app: ``app``)
COMMAND_GROUP = "bleu_explorer.commands"


def main(argv: Sequence[str] | None = None) -> int:
    """Score files as sacrebleu does, or (``app`` first) start the web app."""
    arguments = list(sys.argv[1:] if argv is None else argv)
    if arguments and arguments[0] in APP_COMMANDS:
        from importlib.metadata import entry_points

        found = entry_points(group=COMMAND_GROUP, name="app")
        if not found:
            print("bleu-explorer: error: the web app is not installed with this package "
                  "(pip install bleu-explorer installs it).", file=sys.stderr)
            return 1
        return next(iter(found)).load()(arguments[1:])
    return command.main(arguments)


__all__ = ["main"]
