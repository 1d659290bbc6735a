"""COMET and BERTScore on this machine: segments per second with base-size models, ours
(``bleu.metrics.learned``) against the libraries' own calls, and what the bundled sample would
take.

No model is downloaded: base-size architectures get random weights (the time of a forward pass
does not depend on the weights' values), built here with a SentencePiece vocabulary trained on
the sample's text (8,000 pieces; XLM-R's own has 250,002, which splits German into a similar
number of tokens, so the embedding lookups differ and the layers' work does not).

- COMET: XLM-R base (12 layers, hidden 768) under wmt22-comet-da's regression head
  (3072, 1024), one system of the sample with reference A; ours vs ``model.predict(gpus=0)``.
- BERTScore: the same encoder, 9 layers (bert_score's choice for xlm-roberta-base), two
  references; ours vs ``bert_score.score``.

Both sides' scores are checked equal (to float32 rounding for COMET's and bert_score's own
batching) before a time is printed. Our estimate made before the first batch is printed beside
the measured time. The extrapolation for the sample (9 systems x 2,037 segments x 2 references)
scales our time by segments (COMET, one run per reference) or by distinct sentences to embed
(BERTScore). No GPU here: these are CPU times.

    python benchmarks/bench_learned.py [--comet-segments 64] [--bertscore-segments 256]
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path

os.environ["HF_HUB_OFFLINE"] = "1"

SAMPLE = Path(__file__).resolve().parents[1] / "sample_data"
SYSTEM_NAMES = ("JDExploreAcademy", "Lan-Bridge", "Online-A", "Online-B", "Online-G", "Online-W",
                "Online-Y", "OpenNMT", "PROMT")


def lines(name: str) -> list[str]:
    return (SAMPLE / f"generaltest2022.en-de.{name}").read_text(encoding="utf-8").splitlines()


def build_encoder(folder: Path) -> Path:
    """XLM-R base with random weights and a vocabulary trained on the sample."""
    import sentencepiece
    import torch
    from transformers import (
        XLMRobertaConfig,
        XLMRobertaModel,
        XLMRobertaTokenizer,
        XLMRobertaTokenizerFast,
    )

    text = folder / "train.txt"
    text.write_text("\n".join(lines("src.en") + lines("ref.A.de") + lines("ref.B.de")),
                    encoding="utf-8")
    sentencepiece.SentencePieceTrainer.train(
        input=str(text), model_prefix=str(folder / "spm"), vocab_size=8000,
        model_type="unigram", character_coverage=1.0, minloglevel=2)
    encoder = folder / "xlmr-base"
    XLMRobertaTokenizer(vocab_file=str(folder / "spm.model"),
                        model_max_length=512).save_pretrained(encoder)
    XLMRobertaTokenizerFast.from_pretrained(encoder).save_pretrained(encoder)
    torch.manual_seed(0)
    config = XLMRobertaConfig(vocab_size=8002, hidden_size=768, num_hidden_layers=12,
                              num_attention_heads=12, intermediate_size=3072,
                              max_position_embeddings=514)
    XLMRobertaModel(config).save_pretrained(encoder)
    return encoder


def build_comet(encoder: Path, folder: Path) -> Path:
    """wmt22-comet-da's architecture on the base encoder, saved as COMET saves a model."""
    import pytorch_lightning
    import torch
    import yaml
    from comet.models import RegressionMetric

    torch.manual_seed(1)
    model = RegressionMetric(pretrained_model=str(encoder), load_pretrained_weights=False,
                             local_files_only=True, hidden_sizes=[3072, 1024])
    (folder / "checkpoints").mkdir(parents=True)
    hparams = dict(model.hparams)
    (folder / "hparams.yaml").write_text(yaml.safe_dump(hparams), encoding="utf-8")
    torch.save({"state_dict": model.state_dict(), "hyper_parameters": hparams,
                "pytorch-lightning_version": pytorch_lightning.__version__},
               folder / "checkpoints" / "model.ckpt")
    return folder


def timed(run):  # type: ignore[no-untyped-def]
    start = time.perf_counter()
    result = run()
    return time.perf_counter() - start, result


def close(ours: list[float], theirs: list[float], what: str) -> None:
    worst = max(abs(a - b) for a, b in zip(ours, theirs, strict=True))
    if worst > 1e-5:
        raise AssertionError(f"{what}: our scores differ from the library's by {worst}")


def bench_comet(encoder: Path, folder: Path, n: int) -> tuple[float, float]:
    """Ours and COMET's predict on ``n`` segments; returns (our seconds, estimate)."""
    from comet import load_from_checkpoint

    from bleu.metrics.learned import CometScorer, Progress, score

    src, ref, hyp = lines("src.en")[:n], lines("ref.A.de")[:n], lines("hyp.PROMT.de")[:n]
    scorer = CometScorer(build_comet(encoder, folder), device="cpu")
    reports: list[Progress] = []
    ours_time, ours = timed(lambda: score(scorer, {"PROMT": hyp}, sources=src, references=[ref],
                                          progress=reports.append))
    model = load_from_checkpoint(str(folder / "checkpoints" / "model.ckpt"),
                                 local_files_only=True)
    samples = [{"src": s, "mt": m, "ref": r} for s, m, r in zip(src, hyp, ref, strict=True)]
    theirs_time, theirs = timed(lambda: model.predict(samples, batch_size=16, gpus=0,
                                                      progress_bar=False))
    close(ours.systems[0].scores.tolist(), theirs.scores, "COMET")
    estimate = reports[0].estimate.seconds
    print(f"COMET     {n:5d} segments  ours {ours_time:7.1f} s ({n / ours_time:5.1f} seg/s)   "
          f"comet predict {theirs_time:7.1f} s ({n / theirs_time:5.1f} seg/s)   "
          f"x{theirs_time / ours_time:4.2f}   our estimate before the start {estimate:6.1f} s")
    return ours_time, estimate


def bench_bertscore(encoder: Path, n: int) -> tuple[float, int]:
    """Ours and bert_score.score on ``n`` segments x 2 references; returns (our seconds,
    distinct sentences embedded)."""
    from bert_score import score as bert_score

    from bleu.metrics.learned import BertScoreScorer, Progress, score

    hyp, ref_a, ref_b = lines("hyp.PROMT.de")[:n], lines("ref.A.de")[:n], lines("ref.B.de")[:n]
    scorer = BertScoreScorer(encoder, num_layers=9, device="cpu", chunk_size=n)
    reports: list[Progress] = []
    ours_time, ours = timed(lambda: score(scorer, {"PROMT": hyp}, references=[ref_a, ref_b],
                                          progress=reports.append))
    theirs_time, theirs = timed(lambda: bert_score(
        hyp, [[a, b] for a, b in zip(ref_a, ref_b, strict=True)], model_type=str(encoder),
        num_layers=9, batch_size=64))
    close(ours.systems[0].scores.tolist(), theirs[2].tolist(), "BERTScore")
    sentences = len(set(hyp + ref_a + ref_b))
    print(f"BERTScore {n:5d} segments  ours {ours_time:7.1f} s ({n / ours_time:5.1f} seg/s)   "
          f"bert_score    {theirs_time:7.1f} s ({n / theirs_time:5.1f} seg/s)   "
          f"x{theirs_time / ours_time:4.2f}   our estimate before the start "
          f"{reports[0].estimate.seconds:6.1f} s")
    return ours_time, sentences


def minutes(seconds: float) -> str:
    return f"{seconds / 60:,.0f} min ({seconds / 3600:.1f} h)"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--comet-segments", type=int, default=64)
    parser.add_argument("--bertscore-segments", type=int, default=256)
    args = parser.parse_args()
    import torch

    print(f"torch {torch.__version__}, {torch.get_num_threads()} threads, GPU: "
          f"{'yes' if torch.cuda.is_available() else 'none (CPU times)'}; load average "
          f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores (other work slows both sides)")
    with tempfile.TemporaryDirectory() as folder:
        encoder = build_encoder(Path(folder))
        comet_time, _ = bench_comet(encoder, Path(folder) / "comet", args.comet_segments)
        bert_time, sentences = bench_bertscore(encoder, args.bertscore_segments)
    segments = 9 * 2037
    all_sentences = len({line for name in SYSTEM_NAMES for line in lines(f"hyp.{name}.de")}
                        | set(lines("ref.A.de")) | set(lines("ref.B.de")))
    per_reference = comet_time / args.comet_segments * segments
    print(f"load average now {os.getloadavg()[0]:.1f}")
    print(f"the sample, {len(SYSTEM_NAMES)} systems x 2,037 segments x 2 references, on this CPU:")
    print(f"  COMET (base size), one reference: {minutes(per_reference)}; both references: "
          f"{minutes(2 * per_reference)}")
    print(f"  BERTScore (base size, 9 layers), both references ({all_sentences:,} distinct "
          f"sentences): {minutes(bert_time / sentences * all_sentences)}")


if __name__ == "__main__":
    main()
