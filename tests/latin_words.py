"""Which Latin words on a Chinese screen are stray English, and which belong there (issue 25, "简体中文").

A text in Chinese may still hold Latin letters that are right: a name (a run, a class, a dataset, a GPU, a
model file), a path, a file name, a flag, a command, a unit, a quotation of another program's own words
(yolov5's message a finding quotes, Pillow's reason), or one of the few technical terms that Chinese
documentation writes in Latin letters. Anything else is an English word a Chinese reader has to decode —
the walk in ``test_chinese_walk`` fails on it, mixed into Chinese text or on its own.
"""

from __future__ import annotations

import re
from html import unescape

from tools.i18n_verbatim import verbatim_tokens

#: Terms written in Latin letters in Chinese text too, each for a reason (keep this short: a word that is
#: here is never caught). Lower case; words with a digit (yolov5s, RTX 4090, exp2) are names already.
TERMS = {
    # products and libraries: names, never translated (docs/architecture.md, "Translation")
    "yolo", "yolov", "studio", "pytorch", "torch", "torchvision", "cuda", "cudnn", "nvidia", "nvml", "onnx",
    "onnxsim", "onnxruntime", "openvino", "nncf", "tensorrt", "torchscript", "opencv", "pillow", "python", "pip", "pyside", "qt",
    "ray", "torchrun", "nohup", "wsl", "linux", "windows", "macos", "debian", "ubuntu", "fedora", "rhel",
    "nvidia-smi", "libnvidia-ml", "geforce", "quadro", "gtx", "rtx", "tesla", "powershell", "docker", "dejavu",
    "colab", "kaggle",
    # NVIDIA's GPU architecture names (the compute-capability table's rows)
    "maxwell", "pascal", "volta", "turing", "ampere", "ada", "lovelace", "hopper", "blackwell",
    # names in code the text points at: PyTorch's DataParallel, yolov5's AutoBatch, Python's start methods
    "dataparallel", "autobatch", "spawn", "fork",
    # Linux's name for its resource groups (/sys/fs/cgroup), as container docs write it
    "cgroup",
    # NVIDIA's name for a slice of a GPU (Multi-Instance GPU), as nvidia-smi and NVIDIA's Chinese docs print it
    "mig",
    # the accelerators that are not an NVIDIA desktop card, by their vendors' names, and their tools (issue 31)
    "amd", "rocm", "hip", "rocm-smi", "jetson", "jetpack", "tegra", "tegrastats", "jtop", "pypi", "ecc", "dll",
    # dataset formats the importer reads, by their own names
    "voc", "labelme", "coco",
    # ONNX's own term for its operator-set version (``opset_version`` in torch.onnx.export, ``--opset``)
    "opset",
    # data.yaml's keys, shown beside the form's fields so the YAML tab reads the same (yolov5's names)
    "path", "train", "val", "test", "names", "nc",
    # hardware and standard abbreviations Chinese text keeps: 显卡 GPU, 内存 RAM, 混合精度 AMP, 多卡 DDP …
    "gpu", "gpus", "cpu", "cpus", "ram", "amp", "ddp", "pcie", "ssd", "ssh", "https", "http", "url", "api", "id",
    "ids", "pid", "ptx", "oom", "nan", "winerror", "bom",
    # the detection metrics and terms as yolov5 and the papers print them
    "map", "iou", "nms", "gflops", "fps", "ema", "bn", "lr", "sgd", "adam", "adamw", "box", "obj", "cls",
    # file formats and licences named as such
    "json", "yaml", "csv", "jpeg", "png", "gnu", "agpl", "sil", "ofl",
    # units
    "px", "ms", "kb", "mb", "gb", "tb", "kib", "mib", "gib", "mhz", "ghz",
    # keys on the keyboard, as printed on them
    "ctrl", "shift", "alt", "esc", "enter", "tab", "del", "delete", "space", "pageup", "pagedown",
    # the language picker names English in English, as every language picker does
    "english",
}
#: Names of more than one word (products, fonts, formats): removed whole, so their words need no entry above.
PRODUCTS = ("ONNX Runtime", "Ray Tune", "Noto Sans CJK SC", "DejaVu Sans", "Pascal VOC", "OOM killer",
            "Microsoft Visual C++ Redistributable")
TAG = re.compile(r"<[^<>]*>")
CJK = re.compile(r"[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef]")
QUOTED = re.compile(r"'[^']*'|\"[^\"]*\"|“[^”]*”|‘[^’]*’|「[^」]*」|`[^`]*`")
#: A command line as the user types it, up to the end of the line or the Chinese text around it.
COMMAND_LINE = re.compile(r"(?:\S*python[\d.]*(?:\.exe)? +-m +|\bpip3? +(?:install|uninstall|download) "
                          r"|\byolostudio +[a-z-]|\bsudo +|\btorchrun +|\bdocker +[a-z]|\bkill +\d)[^\n（），。；：()]*")
#: A flag and its value as typed ("--cache disk", "--workspace DIR"): the value is typed, not read.
FLAG_VALUE = re.compile(r"(?<![\w-])--[a-z][a-z0-9-]*(?:[ =][^\s，。；：（）()]+)?")
WORD = re.compile(r"[A-Za-z][A-Za-z'’-]*[A-Za-z]|[A-Za-z]{2,}")


def plain(text: str) -> str:
    """What a person reads: markup, entities, word joiners and mnemonic markers gone."""
    text = unescape(TAG.sub(" ", text)).replace("\u2060", "").replace("\u00a0", " ")  # word joiners, nbsp
    return text.replace("&&", "\0").replace("&", "").replace("\0", "&")


def stray_words(text: str, names: set[str] = frozenset()) -> list[str]:
    """The English words of ``text`` a Chinese reader meets: not a name of ``names`` (runs, classes, files the
    test made), a path, file name, flag, command, quotation, a word with a digit, or one of ``TERMS``."""
    text = FLAG_VALUE.sub(" ", COMMAND_LINE.sub(" ", QUOTED.sub(" ", plain(text))))
    for token in sorted(verbatim_tokens(text), key=len, reverse=True):
        text = text.replace(token, " ")
    for product in PRODUCTS:
        text = text.replace(product, " ")
    text = CJK.sub(" ", text)  # a Latin word ends where Chinese text begins
    lowered = {n.lower() for n in names}
    out = []
    for token in text.split():
        if re.search(r"\d|[/\\@_]", token) or re.match(r"[.*]+\w+[…:：]*$", token):
            continue  # exp2, yolov5s, sm_86, mAP@0.5, a/b, .txt: names, ids, paths and file types
        for word in WORD.findall(token):
            if len(word) > 1 and word.lower() not in TERMS and word.lower() not in lowered:
                out.append(word)
    return out
