"""The batched augmentation (core/worker/batch_augment.py, batch_mosaic.py) against yolov5 7.0.14's own
functions on the same images and the same random draws: ``random_perspective``'s boxes exactly (affine and
perspective, sampled parameters), its image within interpolation rounding, ``load_mosaic``'s placement and
boxes, the flips' boxes, ``augment_hsv``'s colours within its uint8 rounding; copy_paste refused in words."""

from __future__ import annotations

import random
from types import SimpleNamespace

import numpy as np
import pytest
import torch

pytest.importorskip("yolov5")

from yolov5.utils import augmentations as y5aug  # noqa: E402
from yolov5.utils.dataloaders import LoadImagesAndLabels  # noqa: E402
from yolov5.utils.general import xyxy2xywhn  # noqa: E402

from core.worker.batch_augment import augment_hsv, draw_perspective, perspective_matrix, transform_boxes, warp_batch  # noqa: E402,E501
from core.worker.batch_mosaic import BatchAugmenter, content_box, unsupported, xywhn_to_xyxy  # noqa: E402

HYPS = [dict(degrees=0.0, translate=0.1, scale=0.5, shear=0.0, perspective=0.0),
        dict(degrees=30.0, translate=0.2, scale=0.9, shear=10.0, perspective=0.0),
        dict(degrees=10.0, translate=0.1, scale=0.5, shear=5.0, perspective=0.0005)]


def _image_and_boxes(seed: int, h: int = 96, w: int = 128, n: int = 12) -> tuple[np.ndarray, np.ndarray]:
    g = np.random.default_rng(seed)
    im = g.integers(0, 255, (h, w, 3), dtype=np.uint8)
    xy = g.uniform(0, [w - 10, h - 10], (n, 2))
    wh = g.uniform(3, 40, (n, 2))
    boxes = np.concatenate((g.integers(0, 5, (n, 1)), xy, np.minimum(xy + wh, [w, h])), 1)
    return im, boxes


@pytest.mark.parametrize("hyp", HYPS)
@pytest.mark.parametrize("seed", range(4))
def test_random_perspective_boxes_equal_yolov5s(hyp, seed):
    im, boxes = _image_and_boxes(seed)
    random.seed(seed)
    y_im, y_boxes = y5aug.random_perspective(im.copy(), boxes.copy(), **hyp)
    random.seed(seed)
    draw = draw_perspective(hyp)
    M = perspective_matrix(draw, im.shape[:2], im.shape[:2])
    keep, new = transform_boxes(torch.from_numpy(boxes[:, 1:]), M, draw.scale, im.shape[:2],
                                bool(hyp["perspective"]))
    assert keep.sum().item() == len(y_boxes)
    np.testing.assert_array_equal(boxes[keep.numpy(), 0], y_boxes[:, 0])
    np.testing.assert_allclose(new.numpy(), y_boxes[:, 1:], atol=1e-6)
    warped = warp_batch(torch.from_numpy(im).permute(2, 0, 1)[None].float() / 255, [M], im.shape[:2],
                        bool(hyp["perspective"]))[0]
    diff = (warped.permute(1, 2, 0).numpy() * 255 - y_im.astype(np.float64)).__abs__()
    assert np.median(diff) <= 1.0 and diff.mean() < 3.0  # bilinear in float vs OpenCV's fixed point


def _letterboxed(sizes: list[tuple[int, int]], s: int, seed: int):
    """yolov5's load_image results (content) and the same images letterboxed as the loader gives them."""
    g = np.random.default_rng(seed)
    contents, letterboxed, shapes, y_labels, targets = [], [], [], [], []
    for i, (h, w) in enumerate(sizes):
        im = g.integers(0, 255, (h, w, 3), dtype=np.uint8)
        lb, ratio, pad = y5aug.letterbox(im, s, auto=False, scaleup=False)
        _, boxes = _image_and_boxes(seed + i, h, w, 5)
        contents.append(im)
        letterboxed.append(torch.from_numpy(lb).permute(2, 0, 1).float() / 255)
        shapes.append(((h, w), ((1.0, 1.0), pad)))
        y_labels.append(np.concatenate((boxes[:, :1], xyxy2xywhn(boxes[:, 1:], w, h)), 1))
        left, top = round(pad[0] - 0.1), round(pad[1] - 0.1)
        lb_boxes = boxes[:, 1:] + [left, top, left, top]
        targets.append(np.concatenate((np.full((5, 1), i), boxes[:, :1], xyxy2xywhn(lb_boxes, s, s)), 1))
    return contents, torch.stack(letterboxed), shapes, y_labels, torch.from_numpy(np.concatenate(targets))


@pytest.mark.parametrize("seed", range(3))
def test_mosaic_placement_and_boxes_equal_yolov5s_load_mosaic(seed):
    s = 64
    sizes = [(64, 48), (40, 64), (64, 64), (30, 64)]
    contents, imgs, shapes, y_labels, targets = _letterboxed(sizes, s, seed)
    hyp = dict(mosaic=1.0, degrees=5.0, translate=0.1, scale=0.5, shear=2.0, perspective=0.0, copy_paste=0.0)
    fake = SimpleNamespace(img_size=s, mosaic_border=[-s // 2, -s // 2], indices=[0, 1, 2, 3], hyp=hyp,
                           labels=y_labels, segments=[[] for _ in sizes],
                           load_image=lambda k: (contents[k], None, contents[k].shape[:2]))
    random.seed(seed)
    y_img, y_lab = LoadImagesAndLabels.load_mosaic(fake, 0)
    assert [content_box(sh, (s, s))[2:] for sh in shapes] == sizes
    aug = BatchAugmenter(hyp)
    pixel = [torch.cat((targets[targets[:, 0] == i, 1:2], xywhn_to_xyxy(targets[targets[:, 0] == i, 2:], s, s)), 1)
             for i in range(4)]
    random.seed(seed)
    canvas, lab = aug._mosaic(imgs.double(), pixel, [content_box(sh, (s, s)) for sh in shapes], 0, s)
    draw = draw_perspective(hyp)
    M = perspective_matrix(draw, canvas.shape[1:], (s, s))
    keep, new = transform_boxes(lab[:, 1:], M, draw.scale, (s, s), False)
    np.testing.assert_array_equal(lab[keep, 0].numpy(), y_lab[:, 0])
    np.testing.assert_allclose(new.numpy(), y_lab[:, 1:], atol=1e-3)  # labels pass through normalised xywh
    warped = warp_batch(canvas[None].float(), [M], (s, s), False)[0]
    diff = np.abs(warped.permute(1, 2, 0).numpy() * 255 - y_img)
    assert np.median(diff) <= 1.0


def test_flips_move_boxes_as_yolov5s():
    s = 64
    _, imgs, shapes, _, targets = _letterboxed([(64, 64), (64, 64)], s, 7)
    hyp = dict(mosaic=0.0, flipud=1.0, fliplr=1.0)
    out, t = BatchAugmenter(hyp)(imgs, targets.float(), shapes)
    assert torch.allclose(out, imgs.flip(2).flip(3), atol=1e-4)  # the identity warp, in float
    keep_order = targets.float()
    assert torch.allclose(t[:, 2], 1 - keep_order[:, 2].clamp(0, 1), atol=1e-3)  # yolov5: x = 1 - x
    assert torch.allclose(t[:, 3], 1 - keep_order[:, 3].clamp(0, 1), atol=1e-3)
    assert torch.equal(t[:, :2], keep_order[:, :2])


def test_hsv_matches_yolov5s_augment_hsv():
    im, _ = _image_and_boxes(3, 48, 48)
    hyp = (0.015, 0.7, 0.4)
    np.random.seed(5)
    y_im = im.copy()
    y5aug.augment_hsv(y_im, *hyp)
    np.random.seed(5)
    gains = np.random.uniform(-1, 1, 3) * hyp + 1
    rgb = torch.from_numpy(im[..., ::-1].copy()).permute(2, 0, 1)[None].float() / 255
    ours = augment_hsv(rgb, torch.as_tensor(gains)[None])[0].permute(1, 2, 0).numpy()[..., ::-1] * 255
    diff = np.abs(ours - y_im)
    assert np.median(diff) <= 2.0 and diff.mean() < 3.0  # OpenCV's uint8 HSV steps


def test_whole_batch_runs_and_keeps_boxes_inside():
    s = 64
    _, imgs, shapes, _, targets = _letterboxed([(64, 48), (40, 64), (64, 64), (30, 64)], s, 1)
    hyp = dict(mosaic=1.0, mixup=0.5, degrees=10.0, translate=0.1, scale=0.5, shear=2.0, perspective=0.0,
               hsv_h=0.015, hsv_s=0.7, hsv_v=0.4, flipud=0.5, fliplr=0.5)
    random.seed(0)
    out, t = BatchAugmenter(hyp)(imgs, targets.float(), shapes)
    assert out.shape == imgs.shape and out.min() >= 0 and out.max() <= 1
    assert t.shape[1] == 6 and ((t[:, 2:] >= 0) & (t[:, 2:] <= 1)).all()
    assert set(t[:, 0].long().tolist()) <= {0, 1, 2, 3}


def test_copy_paste_is_refused_in_words():
    assert unsupported({"copy_paste": 0.0}) == []
    with pytest.raises(ValueError, match="copy_paste=0.1: copy_paste needs each object's polygon"):
        BatchAugmenter({"copy_paste": 0.1})
