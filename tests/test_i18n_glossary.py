"""One Chinese term per concept across both catalogues (issue 30): the widgets' (``yolostudio_zh_CN.ts``) and
core's and the CLI's (``core_zh_CN.ts``). A user reads the same word for the same thing on the Train page, in a
message from core and in ``yolostudio --help``; the two catalogues once said 图像尺寸 and 图片尺寸 for "image size".

``GLOSSARY``: concept -> (the English words that name it in a source, the one Chinese term, the other spellings a
translator might reach for). Every translated message whose source names the concept uses the term, and no
translation anywhere uses another spelling. Text in single quotes in a source is a quoted yolov5 message, kept
in English in the translation, so it names no concept here.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pytest

CATALOGUES = sorted((Path(__file__).resolve().parents[1] / "resources" / "i18n").glob("*_zh_CN.ts"))

GLOSSARY: dict[str, tuple[str, str, tuple[str, ...]]] = {
    "image size": (r"\bimage sizes?\b", "图片尺寸", ("图像尺寸", "图片大小", "图像大小")),
    "image": (r"\bimages?\b", "图片", ("图像", "影像")),
    "batch size": (r"\bbatch size\b", "批大小", ("批次大小", "批量大小", "批处理大小")),
    # Issue 32: "640 px" beside "640 像素" on the same screen; the unit reads 像素 everywhere.
    "pixels": (r"\bpx\b|\bpixels?\b", "像素", ("px",)),
}
#: Concepts whose every naming source must show the term (an image may be "大图", "原图", "背景图" or "张").
REQUIRED = ("image size", "batch size", "pixels")


def messages() -> list[tuple[str, str, str]]:
    """(catalogue, source, every translation text of it) for each translated message of both catalogues."""
    out = []
    for path in CATALOGUES:
        for message in ElementTree.parse(path).getroot().iter("message"):
            texts = [t.text or "" for t in message.iter("translation")] + [n.text or "" for n in
                                                                           message.iter("numerusform")]
            if any(texts):
                out.append((path.name, message.findtext("source") or "", " ".join(texts)))
    return out


def test_both_catalogues_are_read():
    assert {path.name for path in CATALOGUES} == {"core_zh_CN.ts", "yolostudio_zh_CN.ts"}
    assert {catalogue for catalogue, _source, _text in messages()} == {path.name for path in CATALOGUES}


@pytest.mark.parametrize("concept", sorted(GLOSSARY))
def test_no_translation_spells_a_concept_another_way(concept):
    _words, term, others = GLOSSARY[concept]
    found = [(catalogue, source[:60], other) for catalogue, source, text in messages() for other in others
             if re.search(rf"(?<![A-Za-z]){re.escape(other)}(?![A-Za-z])", re.sub(r"\{[^}]*\}", "", text))]
    assert not found, f"{concept!r} is {term} in the glossary; these say otherwise: {found}"


@pytest.mark.parametrize("concept", REQUIRED)
def test_every_message_that_names_the_concept_uses_its_term(concept):
    words, term, _others = GLOSSARY[concept]
    named = [(catalogue, source, text) for catalogue, source, text in messages()
             if re.search(words, re.sub(r"'[^']*'", "", source), re.IGNORECASE)]
    assert {catalogue for catalogue, _s, _t in named} == {path.name for path in CATALOGUES}  # both say it
    missing = [(catalogue, source[:60], text[:40]) for catalogue, source, text in named if term not in text]
    assert not missing, f"{concept!r} should read {term}: {missing}"


#: Issue 30: a training run is 训练 (the Runs page is 训练记录), never 运行; 运行 is the verb (run a command, a
#: program, a model) and stays in the fixed terms 运行 ID (the rendezvous "run id") and 试运行 ("dry run").
#: The English noun is found by the phrases it is unambiguous in; "run id" is a term of its own.
RUN_NOUN = re.compile(r"\b(the|this|a|each|every|its|that|another|which|next) run\b(?! id)|\brun \{(run|name)\}|"
                      r"\bruns page\b|\bthe run's\b|\bthe runs\b|\bselected runs\b", re.IGNORECASE)
#: 运行 used as that noun: after a determiner (该运行, 一个运行), before a run's name (运行 {run}) or as the
#: subject/owner of what follows (运行在, 运行所在, 运行名称, 运行列表, 运行目录, 运行自己, 运行之间).
RUN_AS_NOUN_ZH = re.compile(r"(该|这次|一次|一个|下一次|本次|某次|另一个|所选|所属|训练)运行|运行 ?\{(run|name)\}|"
                            r"运行(在|所在|名称|列表|目录|自己|之间|使用)")


def test_the_noun_run_is_training_not_running():
    named = [(catalogue, source, text) for catalogue, source, text in messages() if RUN_NOUN.search(source)]
    assert len(named) > 40, "the noun phrases no longer find the run messages"
    wrong = [(catalogue, source[:70], text[:70]) for catalogue, source, text in named
             if RUN_AS_NOUN_ZH.search(text.replace("运行 ID", "").replace("试运行", ""))]
    assert not wrong, f"a training run is 训练 (训练记录 for the list), 运行 is the verb: {wrong}"
