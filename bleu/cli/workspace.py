"""The command line's workspace flags: score from a saved workspace, save what is scored.

``--workspace ID_OR_NAME`` takes the references (and, without ``-i``, the systems) from a saved
workspace; ``--save-workspace NAME`` saves the references and systems given as a new workspace
and prints its edit secret (the app asks for it before it lets anyone change the workspace). The
database is BLEU_EXPLORER_DB's, else the default file in the user's data folder; messages name
it with its secrets hidden.
"""

from __future__ import annotations

import argparse
import logging
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TextIO

from ..io import TextFile
from ..io.dataset import assemble, system_name
from ..workspace.config import database_location
from ..workspace.model import Workspace, new_edit_token
from ..workspace.store import WorkspaceStore
from .inputs import CommandLineError, check_lengths, read_references, read_systems

logger = logging.getLogger(__name__)
Systems = list[tuple[str, list[str]]]


def workspace_inputs(args: argparse.Namespace, stdin: TextIO | None,
                     options: Mapping[str, object]) -> tuple[list[list[str]], list[str], Systems]:
    """References, their names and the systems to score for ``--workspace`` and/or
    ``--save-workspace``; what ``--save-workspace`` names is saved before scoring."""
    store = WorkspaceStore(database_location(), show_location=True)
    source: TextFile | None = None
    language = None
    if args.workspace is not None:
        if args.refs:
            raise CommandLineError(
                f"--workspace {args.workspace} gives the references; do not also give reference "
                f"files ({', '.join(args.refs)})."
            )
        info = store.find(args.workspace)
        data = store.load(info.id).dataset
        references = [list(stream) for stream in data.reference_streams]
        ref_names = [f"{ref.name} (workspace {info.name!r})" for ref in data.references]
        if args.input is not None:
            systems = read_systems(args, stdin)
        else:
            systems = [(name, list(file.segments)) for name, file in data.systems.items()]
        ref_files = list(data.references)
        source, language = data.source, data.target_language
    else:
        references, ref_names = read_references(args.refs, args.num_refs, args.encoding,
                                                 args.line_limit)
        ref_files = [TextFile(ref_name, tuple(stream))
                     for ref_name, stream in zip(ref_names, references, strict=True)]
        systems = read_systems(args, stdin, (len(references[0]), ref_names[0]))
    if args.save_workspace is not None:
        check_lengths(systems, references, ref_names)
        _save(store, args.save_workspace, ref_files, systems, source, language, options)
    return references, ref_names, systems


def _app_options(options: Mapping[str, object]) -> dict[str, object]:
    """The CLI's BLEU options under the app's option keys, so the app reopens them."""
    saved = {key: options[key] for key in ("tokenize", "lowercase", "smooth_method",
                                           "max_ngram_order")}
    if options.get("smooth_value") is not None:
        saved[f"smooth_value_{options['smooth_method']}"] = options["smooth_value"]
    return saved


def _save(store: WorkspaceStore, name: str, refs: Sequence[TextFile], systems: Systems,
          source: TextFile | None, language: str | None, options: Mapping[str, object]) -> None:
    files = [TextFile(path, tuple(segments)) for path, segments in systems]
    names = [system_name(Path(path).name) for path, _ in systems]
    dataset = assemble(files, refs, source, names=names, label=f"bleu-explorer: {name}",
                       language=language)
    token = new_edit_token()
    saved = store.save(Workspace.new(dataset, name, options=_app_options(options)), token=token)
    logger.info("Saved workspace %r (id %s, %d systems) in %s. Its edit secret is %s: the app "
                "asks for it (sidebar, \"Edit with its secret\") before it lets a browser rename, "
                "add systems to or delete the workspace; it is stored nowhere else.",
                saved.name, saved.id, len(dataset.systems), store.description, token)
