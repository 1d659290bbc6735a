"""What a shared server needs of model loading: a checkpoint that would run code when unpickled
is refused (and nothing in it runs), tensors-only checkpoints and .safetensors load; a visitor
picks among the models the operator offers, every other name (an existing path, a missing one,
``/``, ``/etc``) gets the one same message, and a folder of models is listed one level deep,
never scanned; a model folder is fingerprinted from its own files, not from a walk of the
folder."""

from __future__ import annotations

import os
import pickle
import time
import zipfile
from pathlib import Path

import pytest
from learned_models import (
    REFERENCE_A,
    SOURCES,
    SYSTEMS,
    TinyModels,
    tiny_models_fixture,  # noqa: F401 -- `tiny_models`: the session's models
)

from bleu.metrics.learned import (
    ModelNotOfferedError,
    UnsafeCheckpointError,
    load_comet,
    offered_models,
    resolve,
    score,
)
from bleu.metrics.learned.checkpoints import read_tensors
from bleu.metrics.learned.models import model_version
from bleu.metrics.learned.offered import MAX_ENTRIES

pytestmark = pytest.mark.learned


class _RunsCode:
    """What a crafted checkpoint holds: unpickling it calls ``os.system``."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self) -> tuple:
        return (os.system, (f"touch {self.marker}",))


def _crafted(tiny_models: TinyModels, folder: Path, marker: Path) -> Path:
    """A copy of the tiny COMET model whose checkpoint runs a command when unpickled."""
    import shutil

    import torch

    shutil.copytree(tiny_models.comet, folder)
    checkpoint = torch.load(folder / "checkpoints" / "model.ckpt", weights_only=True)
    checkpoint["callbacks"] = _RunsCode(marker)
    torch.save(checkpoint, folder / "checkpoints" / "model.ckpt")
    return folder


def test_a_checkpoint_that_would_run_code_is_refused(tiny_models: TinyModels,
                                                     tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    folder = _crafted(tiny_models, tmp_path / "crafted", marker)
    with zipfile.ZipFile(folder / "checkpoints" / "model.ckpt") as archive:  # it is armed:
        pickled = next(name for name in archive.namelist() if name.endswith("data.pkl"))
        assert b"system" in archive.read(pickled)  # unpickled as torch < 2.6 did, it would run
    with pytest.raises(UnsafeCheckpointError, match="holds more than tensors"):
        load_comet(folder, device="cpu")
    assert not marker.exists()
    plain = tmp_path / "plain.pkl"  # a bare pickle, not even a torch file
    plain.write_bytes(pickle.dumps(_RunsCode(marker)))
    with pytest.raises(UnsafeCheckpointError):
        read_tensors(plain, "COMET")
    assert not marker.exists()


def test_safetensors_and_weights_only_checkpoints_load(tiny_models: TinyModels,
                                                       tmp_path: Path) -> None:
    import shutil

    import torch
    from safetensors.torch import save_file

    folder = tmp_path / "as-safetensors"
    shutil.copytree(tiny_models.comet, folder)
    weights = torch.load(folder / "checkpoints" / "model.ckpt", weights_only=True)["state_dict"]
    (folder / "checkpoints" / "model.ckpt").unlink()
    save_file({k: v.contiguous() for k, v in weights.items()},
              str(folder / "checkpoints" / "model.safetensors"))
    a = score(load_comet(folder, device="cpu"), SYSTEMS, sources=SOURCES,
              references=[REFERENCE_A])
    b = score(load_comet(tiny_models.comet, device="cpu"), SYSTEMS, sources=SOURCES,
              references=[REFERENCE_A])
    for x, y in zip(a.systems, b.systems, strict=True):
        assert x.scores.tolist() == y.scores.tolist()


def test_a_visitor_picks_only_offered_models(tiny_models: TinyModels, tmp_path: Path) -> None:
    models = tmp_path / "models"
    models.mkdir()
    (models / "wmt-tiny").symlink_to(tiny_models.comet)
    (models / "notes").mkdir()  # not a model: not offered
    offered = offered_models(environ={"BLEU_EXPLORER_MODELS": f"{models}:{tiny_models.encoder}"})
    assert [model.name for model in offered] == ["wmt-tiny", "encoder"]
    assert [model.kind for model in offered] == ["comet", "encoder"]  # what each metric lists
    assert resolve("wmt-tiny", offered) == tiny_models.comet.resolve()
    messages = set()
    for name in ("/", "/etc", str(tiny_models.comet), "../comet", "notes", "/no/such/path",
                 "wmt-tiny/../../", "Unbabel/wmt22-comet-da", ""):
        with pytest.raises(ModelNotOfferedError) as caught:
            resolve(name, offered)
        messages.add(str(caught.value))
    assert messages == {"This model is not offered on this server: pick one of the models in "
                        "the list."}


def test_a_large_folder_is_never_scanned(tmp_path: Path) -> None:
    big = tmp_path / "big"
    big.mkdir()
    for i in range(MAX_ENTRIES + 300):
        (big / f"f{i:05d}").mkdir()
    deep = big / "f00001"
    for _ in range(50):
        deep = deep / "x"
    deep.mkdir(parents=True)
    (deep / "config.json").write_text("{}")  # a model far down: not looked for
    start = time.perf_counter()
    assert offered_models(environ={"BLEU_EXPLORER_MODELS": str(big)}) == ()
    assert offered_models(environ={"BLEU_EXPLORER_MODELS": "/"}) is not None
    assert time.perf_counter() - start < 5
    version = model_version(big)  # a folder that holds no model file: nothing read
    assert version == model_version(tmp_path / "big")


def test_a_models_version_reads_its_own_files_only(tiny_models: TinyModels,
                                                   tmp_path: Path) -> None:
    import shutil

    folder = tmp_path / "model"
    shutil.copytree(tiny_models.comet, folder)
    before = model_version(folder)
    (folder / "notes.txt").write_text("an operator's note")
    assert model_version(folder) == before
    (folder / "hparams.yaml").write_text((folder / "hparams.yaml").read_text() + "\n# changed")
    assert model_version(folder) != before
