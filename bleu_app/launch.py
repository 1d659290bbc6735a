"""``bleu-explorer app``: the web app from the installed package, from any folder.

Runs ``streamlit run`` on the packaged ``server.py`` (``app.py`` with its server's cookie route)
with the settings of ``streamlit.toml`` (the same file the repository's ``.streamlit/config.toml``
mirrors, tested), passed as flags so that no ``.streamlit`` folder is needed where the command is
started. ``--db``, ``--shared`` and ``--models`` set the environment the workspaces and the
learned metrics read (``BLEU_EXPLORER_DB``, ``BLEU_EXPLORER_SHARED``, ``BLEU_EXPLORER_MODELS``).
Other Streamlit settings come from its own environment variables, e.g.
``STREAMLIT_SERVER_COOKIE_SECRET`` for replicas behind one proxy (docs/deploy.md).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

import tomllib

from bleu_app import HERE

#: Streamlit's settings for the app (server, browser, client), as ``--section.key value`` flags
SETTINGS = HERE / "streamlit.toml"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="bleu-explorer app",
        description="Start the BLEU Explorer web app (on the bundled sample until you load "
                    "your own files). Press Ctrl+C to stop it.")
    parser.add_argument("--port", type=int, default=8501, help="Port (default: 8501).")
    parser.add_argument("--host", default="127.0.0.1",
                        help="Address to listen on (default: 127.0.0.1, this machine only; "
                             "0.0.0.0 for every interface).")
    parser.add_argument("--db", default=None, metavar="URL",
                        help="Where workspaces are saved: an SQLite file or a postgresql:// URL "
                             "(sets BLEU_EXPLORER_DB; default: the user's data folder).")
    parser.add_argument("--shared", action="store_true",
                        help="A lab or class server: list every workspace to every visitor "
                             "(sets BLEU_EXPLORER_SHARED=1); visitors pick learned-metric "
                             "models among those of --models only.")
    parser.add_argument("--models", action="append", default=None, metavar="FOLDER",
                        help="A model folder, or a folder of model folders, offered for "
                             "learned metrics (repeatable; sets BLEU_EXPLORER_MODELS).")
    return parser


def settings_flags() -> list[str]:
    """``streamlit.toml`` as Streamlit's command-line flags (``--server.headless=true``...)."""
    with SETTINGS.open("rb") as handle:
        sections = tomllib.load(handle)
    flags = []
    for section, values in sections.items():
        for key, value in values.items():
            text = str(value).lower() if isinstance(value, bool) else str(value)
            flags.append(f"--{section}.{key}={text}")
    return flags


def parse(argv: Sequence[str]) -> argparse.Namespace:
    """The arguments of ``bleu-explorer app``; a port outside 1..65535 is an error."""
    parser = build_parser()
    args = parser.parse_args(list(argv))
    if not 1 <= args.port <= 65535:
        parser.error(f"--port must be between 1 and 65535, got {args.port}")
    return args


def address(args: argparse.Namespace) -> str:
    """The URL the server listens on (an IPv6 host in brackets)."""
    host = f"[{args.host}]" if ":" in args.host else args.host
    return f"http://{host}:{args.port}"


def command(argv: Sequence[str]) -> tuple[list[str], dict[str, str]]:
    """The ``streamlit run`` command line and the environment changes for ``argv``."""
    args = parse(argv)
    environment = {}
    if args.db is not None:
        environment["BLEU_EXPLORER_DB"] = args.db
    if args.shared:
        environment["BLEU_EXPLORER_SHARED"] = "1"
    if args.models:
        environment["BLEU_EXPLORER_MODELS"] = os.pathsep.join(args.models)
    line = [sys.executable, "-m", "streamlit", "run", str(HERE / "server.py"), *settings_flags(),
            f"--server.port={args.port}", f"--server.address={args.host}"]
    return line, environment


def main(argv: Sequence[str]) -> int:
    """Replace this process by the Streamlit server (signals and exit status are its own)."""
    line, environment = command(argv)
    os.environ.update(environment)
    print(f"BLEU Explorer on {address(parse(argv))}", file=sys.stderr, flush=True)
    os.execv(line[0], line)
    return 0  # not reached: execv returns only by raising
