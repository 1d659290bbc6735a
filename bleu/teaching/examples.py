"""The examples the teaching pages start with, in the interface's language: the classic clipping
example of Papineni et al. (2002) ("the" seven times, credited twice; in Dutch "de" seven
times, written for this app after it), the own pair of the exercises, the short sentence of
Brevity penalty and the paraphrase of Blind spots. Each names its source (``source``)."""

from __future__ import annotations

from dataclasses import dataclass

from ..i18n import language, tr
from .breakdown import CLASSIC_CANDIDATE, CLASSIC_REFERENCES


@dataclass(frozen=True)
class Example:
    """A candidate, its references and the language they are in."""

    candidate: str
    references: tuple[str, ...]
    language: str


_EXAMPLES = {
    "en": {
        "clipping": Example(CLASSIC_CANDIDATE, CLASSIC_REFERENCES, "en"),
        "exercise": Example("the cat sat on the mat", ("the cat is on the mat",), "en"),
        "brevity": Example("the cat sat", ("the cat sat on the mat",), "en"),
        "paraphrase": Example("The building is strong and the foundation is solid.",
                              ("The foundation is solid and the building is firm.",), "en"),
    },
    "nl": {
        "clipping": Example("de de de de de de de",
                            ("de kat zit op de mat", "er zit een kat op de mat"), "nl"),
        "exercise": Example("de kat zat op de mat", ("de kat ligt op de mat",), "nl"),
        "brevity": Example("de kat zat", ("de kat zat op de mat",), "nl"),
        "paraphrase": Example("Het gebouw is sterk en de fundering is stevig.",
                              ("De fundering is stevig en het gebouw is solide.",), "nl"),
    },
}


def example(name: str, code: str | None = None) -> Example:
    """The example ``name`` (``clipping``, ``exercise``, ``brevity``, ``paraphrase``) in the
    interface language ``code`` (the current one by default; English where there is none)."""
    return _EXAMPLES.get(code or language(), _EXAMPLES["en"])[name]


def source(name: str, code: str | None = None) -> str:
    """Where example ``name`` comes from, in a sentence."""
    if name == "clipping":
        if (code or language()) == "nl":
            return tr("Example: the clipping example of Papineni et al. (2002), in Dutch, "
                      "written for this app.")
        return tr("Example: the clipping example of Papineni et al. (2002).")
    return tr("Example written for this app.")
