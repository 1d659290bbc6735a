"""COMET and BERTScore: segments per second of the reference libraries and of ours
(``bleu.metrics.learned``), side by side in one process, with the scores checked equal.

Run it in the oracle environment, which has unbabel-comet and bert-score (they pin numpy < 2, so
the app's environment cannot hold them) and this package:

    .venv-oracle/bin/python benchmarks/bench_learned.py [--shape base|large] [--segments 64]
        [--systems 3] [--bertscore-segments 128] [--skip-bertscore]

No model is downloaded: the architectures get random weights (a forward pass takes as long
whatever the weights' values), on a SentencePiece vocabulary of 8,000 pieces trained on the
bundled sample (XLM-R's own has 250,002; it splits German into a similar number of tokens).

- COMET: XLM-R (base: 12 layers, width 768; large: 24 layers, width 1024, wmt22-comet-da's
  shape) under wmt22-comet-da's regression head (3072, 1024; sparsemax layer mix), the first
  ``--segments`` segments of ``--systems`` systems of the sample with reference A:
  ``model.predict`` on all systems' samples (batch 16, gpus=0), comet-score's multi-system run
  as its command line does it (``model.half()``, ``set_embedding_cache()``, one ``predict`` per
  system), and ours (each distinct text once, batches by length).
- BERTScore: the base encoder, 9 layers, two references; ``bert_score.score`` on every system
  in one call (it embeds each distinct sentence once) and one call per system (as systems are
  usually scored: the references embedded again for each), against ours.

Every side runs on the same torch threads (this process's cores). Printed: seconds, segments
per second, our ratio to each, the largest score difference to ``predict`` / ``score``, our
estimate beside our time, the load average (other work on the machine slows both sides), and
the tokens each side puts through the encoder (the library's tokenizer and batching, padding
included; ours each distinct text once): the most that reading each text once can give.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

os.environ["HF_HUB_OFFLINE"] = "1"
os.environ["TRANSFORMERS_OFFLINE"] = "1"

REPO = Path(__file__).resolve().parents[1]
SAMPLE = REPO / "sample_data"
SYSTEM_NAMES = ("PROMT", "Online-W", "JDExploreAcademy", "Lan-Bridge", "Online-A", "Online-B",
                "Online-G", "Online-Y", "OpenNMT")
SHAPES = {"base": (768, 12, 12, 3072), "large": (1024, 24, 16, 4096)}


def lines(name: str) -> list[str]:
    return (SAMPLE / f"generaltest2022.en-de.{name}").read_text(encoding="utf-8").splitlines()


def build_encoder(folder: Path, shape: str) -> Path:
    """XLM-R of ``shape`` with random weights and a vocabulary trained on the sample."""
    import sentencepiece
    import torch
    from transformers import XLMRobertaConfig, XLMRobertaModel, XLMRobertaTokenizer

    folder.mkdir(parents=True)
    text = folder / "train.txt"
    text.write_text("\n".join(lines("src.en") + lines("ref.A.de") + lines("hyp.PROMT.de")),
                    encoding="utf-8")
    sentencepiece.SentencePieceTrainer.train(
        input=str(text), model_prefix=str(folder / "sentencepiece.bpe"), vocab_size=8000,
        model_type="unigram", character_coverage=1.0, minloglevel=2)
    tokenizer = XLMRobertaTokenizer(vocab_file=str(folder / "sentencepiece.bpe.model"))
    tokenizer.save_pretrained(folder)
    width, layers, heads, inner = SHAPES[shape]
    config = XLMRobertaConfig(vocab_size=len(tokenizer) + 4, hidden_size=width,
                              num_hidden_layers=layers, num_attention_heads=heads,
                              intermediate_size=inner, max_position_embeddings=514)
    torch.manual_seed(0)
    XLMRobertaModel(config, add_pooling_layer=False).save_pretrained(folder)
    return folder


def build_comet(encoder: Path, folder: Path) -> Path:
    """A COMET regression model of wmt22-comet-da's head on ``encoder`` (COMET's own class)."""
    import torch
    import yaml
    from comet.models import RegressionMetric

    torch.manual_seed(1)
    model = RegressionMetric(pretrained_model=str(encoder), load_pretrained_weights=False,
                             local_files_only=True, layer_transformation="sparsemax",
                             hidden_sizes=[3072, 1024], activations="Tanh")
    with torch.no_grad():
        for parameter in model.layerwise_attention.scalar_parameters:
            parameter.copy_(torch.randn(1))
    (folder / "checkpoints").mkdir(parents=True)
    hparams = dict(model.hparams)
    (folder / "hparams.yaml").write_text(yaml.safe_dump(hparams), encoding="utf-8")
    torch.save({"state_dict": model.state_dict(), "hyper_parameters": hparams,
                "pytorch-lightning_version": "2.6.0"},
               folder / "checkpoints" / "model.ckpt")
    return folder


def predict_tokens(model: Any, samples: list[dict[str, str]], batch_size: int) -> int:
    """Tokens unbabel-comet's ``predict`` puts through the encoder, padding included: its
    samples sorted by source length (``length_batching``), in each batch every field (src, mt,
    ref) tokenized by the model's own ``prepare_sample`` and padded to its longest."""
    import numpy as np

    order = np.argsort([len(sample["src"]) for sample in samples])
    total = 0
    for start in range(0, len(order), batch_size):
        batch = [samples[i] for i in order[start:start + batch_size]]
        for field in ("src", "mt", "ref"):
            total += int(model.encoder.prepare_sample([s[field] for s in batch])["input_ids"]
                         .numel())
    return total


def bert_score_tokens(tokenizer: Any, calls: list[list[str]], batch_size: int) -> int:
    """Tokens ``bert_score.score`` puts through the encoder over ``calls`` (each call's
    sentences): per call its distinct sentences, sorted by words (longest first), in batches
    padded to their longest (bert_score's ``sent_encode``)."""
    from bert_score.utils import sent_encode

    total = 0
    for sentences in calls:
        ordered = sorted(set(sentences), key=lambda x: len(x.split(" ")), reverse=True)
        for start in range(0, len(ordered), batch_size):
            batch = ordered[start:start + batch_size]
            total += len(batch) * max(len(sent_encode(tokenizer, s)) for s in batch)
    return total


def distinct_tokens(tokenizer: Any, sentences: list[str]) -> int:
    """Tokens of each distinct sentence once, no padding (what ours reads, at the least)."""
    from bert_score.utils import sent_encode

    return sum(len(sent_encode(tokenizer, s)) for s in set(sentences))


def timed(action):  # type: ignore[no-untyped-def]
    start = time.perf_counter()
    found = action()
    return found, time.perf_counter() - start


def load() -> str:
    return "load average " + ", ".join(f"{value:.2f}" for value in os.getloadavg())


def bench_comet(folder: Path, segments: int, systems: int, with_cli: bool = True,
                cli_segments: int | None = None) -> None:
    from comet import load_from_checkpoint

    from bleu.metrics.learned import MemoryScoreCache, load_comet, plan, score

    names = SYSTEM_NAMES[:systems]
    source, reference = lines("src.en")[:segments], lines("ref.A.de")[:segments]
    outputs = {name: lines(f"hyp.{name}.de")[:segments] for name in names}
    samples = [{"src": s, "mt": m, "ref": r} for name in names
               for s, m, r in zip(source, outputs[name], reference, strict=True)]
    total = len(samples)
    checkpoint = str(folder / "checkpoints" / "model.ckpt")
    print(f"COMET, {len(names)} systems x {segments} segments = {total} ({load()})")

    model = load_from_checkpoint(checkpoint, local_files_only=True)
    predicted, predict_seconds = timed(lambda: model.predict(samples, batch_size=16, gpus=0,
                                                             progress_bar=False))
    reference_scores = predicted.scores

    if with_cli:
        cli = load_from_checkpoint(checkpoint, local_files_only=True)  # as comet-score does
        cli.eval()
        cli.half()
        cli.set_embedding_cache()

    # comet-score on the first ``cli_segments`` of each system only, where asked: fp16 on a CPU
    # without fp16 instructions is many times slower than fp32 (its rate is what is compared)
    cut = min(cli_segments or segments, segments)

    def comet_score() -> list[float]:
        found: list[float] = []
        for name in names:
            found += cli.predict([{"src": s, "mt": m, "ref": r} for s, m, r in zip(
                source[:cut], outputs[name][:cut], reference[:cut], strict=True)],
                batch_size=16, gpus=0, progress_bar=False, accelerator="cpu").scores
        return found

    cli_scores, cli_seconds = timed(comet_score) if with_cli else (reference_scores, 0.0)
    cli_total = cut * len(names) if with_cli else total
    if with_cli and cut < segments:  # the scores of predict on the same segments
        reference_cut = [v for k in range(len(names))
                         for v in reference_scores[k * segments:k * segments + cut]]
    else:
        reference_cut = reference_scores

    ours_model = load_comet(folder)
    planned, plan_seconds = timed(lambda: plan(ours_model, outputs, sources=source,
                                               references=[reference],
                                               cache=MemoryScoreCache()))
    ours, run_seconds = timed(lambda: score(ours_model, outputs, sources=source,
                                            references=[reference], cache=MemoryScoreCache()))
    ours_seconds = plan_seconds + run_seconds
    ours_scores = [v for system in ours.systems for v in system.scores.tolist()]
    ours_diff = max(abs(a - b) for a, b in zip(ours_scores, reference_scores, strict=True))
    cli_diff = max(abs(a - b) for a, b in zip(cli_scores, reference_cut, strict=True))
    cli_label = ("comet-score (fp16, cache on)" if cut == segments
                 else f"comet-score, first {cut} of each")
    rows = [("comet predict", predict_seconds, total, "0"),
            *([(cli_label, cli_seconds, cli_total, f"{cli_diff:.1e}")] if with_cli else []),
            ("ours (plan + run)", ours_seconds, total, f"{ours_diff:.1e}")]
    for label, seconds, count, diff in rows:
        print(f"  {label:32s} {seconds:8.1f} s  {count / seconds:7.3f} seg/s  "
              f"max |score - predict| {diff}")
    ours_rate = total / ours_seconds
    versus_cli = (f", ours / comet-score {ours_rate / (cli_total / cli_seconds):.2f}x (seg/s)"
                  if with_cli else "")
    theirs_tokens = predict_tokens(model, samples, 16)
    print(f"  tokens through the encoder: predict {theirs_tokens} (its batches padded), ours "
          f"{planned.estimate.tokens} (each distinct text once, unpadded): at equal speed per "
          f"token, ours / predict at most {theirs_tokens / planned.estimate.tokens:.2f}x")
    print(f"  ours / predict {predict_seconds / ours_seconds:.2f}x{versus_cli}; our plan said "
          f"{planned.estimate.seconds:.1f} s "
          f"for the run after its timed batch, which took {run_seconds:.1f} s ({load()})")
    if ours_diff > 1e-6:
        sys.exit(f"scores differ from predict by {ours_diff}")


def bench_bertscore(encoder: Path, segments: int, systems: int) -> None:
    from bert_score import score as bert_score
    from bert_score.utils import get_tokenizer

    from bleu.metrics.learned import BertScoreScorer, MemoryScoreCache, score

    names = SYSTEM_NAMES[:systems]
    refs = [lines("ref.A.de")[:segments], lines("ref.B.de")[:segments]]
    outputs = {name: lines(f"hyp.{name}.de")[:segments] for name in names}
    candidates = [h for name in names for h in outputs[name]]
    per_segment = [list(pair) for pair in zip(*refs, strict=True)] * len(names)
    print(f"BERTScore, {len(names)} systems x {segments} segments, 2 references ({load()})")
    (_, _, theirs), their_seconds = timed(lambda: bert_score(
        candidates, per_segment, model_type=str(encoder), num_layers=9, batch_size=64))

    def per_system() -> list[float]:  # as a user scores systems: one call each
        found: list[float] = []
        for name in names:
            found += bert_score(outputs[name], [list(p) for p in zip(*refs, strict=True)],
                                model_type=str(encoder), num_layers=9,
                                batch_size=64)[2].tolist()
        return found

    each, each_seconds = timed(per_system)
    scorer = BertScoreScorer(encoder, num_layers=9)
    ours, our_seconds = timed(lambda: score(scorer, outputs, references=refs,
                                            cache=MemoryScoreCache()))
    ours_f1 = [v for system in ours.systems for v in system.scores.tolist()]
    diff = max(abs(a - b) for a, b in zip(ours_f1, theirs.tolist(), strict=True))
    total = len(candidates)
    print(f"  {'bert_score.score, one call':32s} {their_seconds:8.1f} s  "
          f"{total / their_seconds:7.2f} seg/s")
    print(f"  {'bert_score.score, per system':32s} {each_seconds:8.1f} s  "
          f"{total / each_seconds:7.2f} seg/s  max |F1 - one call| "
          f"{max(abs(a - b) for a, b in zip(each, theirs.tolist(), strict=True)):.1e}")
    print(f"  {'ours (plan + run)':32s} {our_seconds:8.1f} s  {total / our_seconds:7.2f} seg/s  "
          f"max |F1 - bert_score| {diff:.1e}")
    tokenizer = get_tokenizer(str(encoder))
    per_call = [h + [r for ref in refs for r in ref] for h in outputs.values()]
    ours_tokens = distinct_tokens(tokenizer, candidates + [r for ref in refs for r in ref])
    one_call = bert_score_tokens(tokenizer, [[s for call in per_call for s in call]], 64)
    each_call = bert_score_tokens(tokenizer, per_call, 64)
    print(f"  tokens through the encoder: bert_score {one_call} in one call, {each_call} per "
          f"system (batches padded); ours {ours_tokens} (each distinct sentence once, "
          f"unpadded): at equal speed per token at most {one_call / ours_tokens:.2f}x one "
          f"call, {each_call / ours_tokens:.2f}x per system")
    print(f"  ours / bert_score: {their_seconds / our_seconds:.2f}x one call, "
          f"{each_seconds / our_seconds:.2f}x per system ({load()})")
    if diff > 1e-6:
        sys.exit(f"F1 differs from bert_score by {diff}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--shape", choices=sorted(SHAPES), default="base")
    parser.add_argument("--segments", type=int, default=64)
    parser.add_argument("--systems", type=int, default=3)
    parser.add_argument("--bertscore-segments", type=int, default=128)
    parser.add_argument("--skip-bertscore", action="store_true")
    parser.add_argument("--skip-comet", action="store_true")
    parser.add_argument("--skip-comet-score", action="store_true",
                        help="leave comet-score's run out (fp16 on a CPU is slow)")
    parser.add_argument("--comet-score-segments", type=int, default=None,
                        help="run comet-score on the first N segments of each system only "
                        "(its seg/s compared): fp16 on a CPU without fp16 instructions is "
                        "tens of times slower than fp32")
    args = parser.parse_args()
    import torch

    from bleu.metrics.learned._libraries import machine_threads

    torch.set_num_threads(machine_threads())
    os.environ["BLEU_EXPLORER_TORCH_THREADS"] = str(machine_threads())
    print(f"torch {torch.__version__}, {torch.get_num_threads()} threads, shape {args.shape}")
    with tempfile.TemporaryDirectory() as root:
        encoder = build_encoder(Path(root) / "encoder", args.shape)
        if not args.skip_comet:
            bench_comet(build_comet(encoder, Path(root) / "comet"), args.segments, args.systems,
                        not args.skip_comet_score, args.comet_score_segments)
        if not args.skip_bertscore:
            base = encoder if args.shape == "base" else build_encoder(Path(root) / "base",
                                                                      "base")
            bench_bertscore(base, args.bertscore_segments, args.systems)


if __name__ == "__main__":
    main()
