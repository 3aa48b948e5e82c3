#!/usr/bin/env python3
"""Writes tests/vision/image_fixtures.spl and the small image files beside it (images/*.png,
*.jpg, made here with PIL from seeded noise and gradients): torchvision.io.decode_image and
torchvision.transforms.v2 (the pinned torchvision) against lib.torch.vision.io and
lib.torch.vision.transforms.

  img_<file>_<mode>   [shape, dtype, flat values] of decode_image(read_file(<file>), mode) for
                      every ImageReadMode a format takes (JPEG: UNCHANGED, GRAY, RGB)
  tf_<case>           [shape, dtype, flat values] of a transform applied to the decoded rgb.png
                      (or to its contiguous / float copy), see TRANSFORMS
  (not palette.png in GRAY_ALPHA / RGB_ALPHA: torchvision expects the expanded palette to have
  an alpha channel it does not have, and returns uninitialised memory as alpha; lib.torch
  adds an opaque one, which the spec checks)
  err_<file>          torchvision's error for a bad file (the spec checks that ours names the
                      file and the same problem)

    .venv/bin/python tests/vision/make_image_fixtures.py
"""
import os
import re
import sys

import torch
from PIL import Image
from torchvision.io import ImageReadMode, decode_image
from torchvision.transforms import v2

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from fixtures import lit  # noqa: E402

IMAGES = os.path.join(HERE, "images")
W, H = 19, 13


def noise(seed, channels, high=256, dtype=torch.uint8):
    """A smooth gradient plus seeded noise, [H, W, channels]: structure for the resizes, noise
    for the decoders."""
    g = torch.Generator().manual_seed(seed)
    y = torch.arange(H).view(H, 1, 1) * (high // (2 * H))
    x = torch.arange(W).view(1, W, 1) * (high // (2 * W))
    n = torch.randint(0, high // 2, (H, W, channels), generator=g)
    return ((y + x + n) % high).to(dtype).squeeze(-1).numpy()


def make_images():
    os.makedirs(IMAGES, exist_ok=True)
    Image.fromarray(noise(1, 3), "RGB").save(os.path.join(IMAGES, "rgb.png"))
    Image.fromarray(noise(2, 4), "RGBA").save(os.path.join(IMAGES, "rgba.png"))
    Image.fromarray(noise(3, 1), "L").save(os.path.join(IMAGES, "gray.png"))
    Image.fromarray(noise(4, 2), "LA").save(os.path.join(IMAGES, "gray_alpha.png"))
    Image.fromarray(noise(5, 1, high=65536, dtype=torch.int32).astype("<u2")).save(os.path.join(IMAGES, "gray16.png"))
    Image.fromarray(noise(6, 3), "RGB").quantize(colors=64, method=Image.Quantize.MEDIANCUT).save(os.path.join(IMAGES, "palette.png"))
    Image.fromarray(noise(7, 3), "RGB").save(os.path.join(IMAGES, "rgb.jpg"), quality=90)
    Image.fromarray(noise(8, 1), "L").save(os.path.join(IMAGES, "gray.jpg"), quality=90)
    # bad files: cut short, and not an image at all
    for good, bad in [("rgb.png", "truncated.png"), ("rgb.jpg", "truncated.jpg")]:
        data = open(os.path.join(IMAGES, good), "rb").read()
        open(os.path.join(IMAGES, bad), "wb").write(data[: len(data) * 2 // 3])
    open(os.path.join(IMAGES, "not_an_image.png"), "wb").write(b"just some text, no image\n")


PNGS = ["rgb.png", "rgba.png", "gray.png", "gray_alpha.png", "gray16.png", "palette.png"]
JPEGS = ["rgb.jpg", "gray.jpg"]
PNG_MODES = ["UNCHANGED", "GRAY", "GRAY_ALPHA", "RGB", "RGB_ALPHA"]
JPEG_MODES = ["UNCHANGED", "GRAY", "RGB"]
BAD = ["truncated.png", "truncated.jpg", "not_an_image.png"]


def record(t):
    return [list(t.shape), str(t.dtype).replace("torch.", ""), [float(v) for v in t.reshape(-1).double().tolist()]]


def file_bytes(name):
    return torch.frombuffer(bytearray(open(os.path.join(IMAGES, name), "rb").read()), dtype=torch.uint8)


MEAN, STD = [0.485, 0.456, 0.406], [0.229, 0.224, 0.225]
# name -> (input: "u8" decoded rgb.png as it comes (a permuted HWC buffer), "u8c" its contiguous
# copy, "f32" ToDtype(float32, scale) of it; the transform). Mirrored in image_spec.spl.
TRANSFORMS = {
    "resize_down": ("u8", v2.Resize(7)),
    "resize_down_c": ("u8c", v2.Resize(7)),
    "resize_hw": ("u8", v2.Resize([5, 11])),
    "resize_up": ("u8", v2.Resize(20)),
    "resize_no_aa": ("u8", v2.Resize(7, antialias=False)),
    "resize_max": ("u8", v2.Resize(8, max_size=10)),
    "resize_float": ("f32", v2.Resize([6, 9])),
    "resize_nearest": ("u8", v2.Resize(7, interpolation=v2.InterpolationMode.NEAREST)),
    "resize_bicubic": ("u8", v2.Resize(7, interpolation=v2.InterpolationMode.BICUBIC)),
    "crop_square": ("u8", v2.CenterCrop(6)),
    "crop_hw": ("u8", v2.CenterCrop([4, 9])),
    "crop_odd": ("u8", v2.CenterCrop([10, 14])),
    "crop_pad": ("u8", v2.CenterCrop([16, 24])),
    "to_float": ("u8", v2.ToDtype(torch.float32, scale=True)),
    "to_float64_noscale": ("u8", v2.ToDtype(torch.float64)),
    "to_uint8": ("f32", v2.ToDtype(torch.uint8, scale=True)),
    "to_uint8_resized": ("f32", v2.Compose([v2.Resize([6, 9]), v2.ToDtype(torch.uint8, scale=True)])),
    "to_int16": ("u8", v2.ToDtype(torch.int16, scale=True)),
    "normalize": ("f32", v2.Normalize(MEAN, STD)),
    "pipeline": ("u8", v2.Compose([v2.Resize(10), v2.CenterCrop(8), v2.ToDtype(torch.float32, scale=True), v2.Normalize(MEAN, STD)])),
}


def main():
    make_images()
    lines = ['"""Written by make_image_fixtures.py: torchvision.io.decode_image and torchvision.transforms.v2."""']
    names = []

    def put(name, value):
        lines.append(f"val {name} = {lit(value)}")
        names.append(name)

    for f in PNGS + JPEGS:
        for mode in PNG_MODES if f.endswith(".png") else JPEG_MODES:
            if f == "palette.png" and mode.endswith("_ALPHA"):
                continue  # torchvision leaves the alpha channel uninitialised there (see the spec)
            put(f"img_{f.replace('.', '_')}_{mode.lower()}", record(decode_image(file_bytes(f), ImageReadMode[mode])))
    for f in BAD:
        try:
            decode_image(file_bytes(f))
            put(f"err_{f.replace('.', '_')}", "")
        except RuntimeError as e:
            put(f"err_{f.replace('.', '_')}", re.sub(r"^.*?\.cpp:\d+, ", "", str(e)))
    u8 = decode_image(file_bytes("rgb.png"))
    inputs = {"u8": u8, "u8c": u8.contiguous(), "f32": v2.ToDtype(torch.float32, scale=True)(u8)}
    for name, (inp, tf) in TRANSFORMS.items():
        put(f"tf_{name}", record(tf(inputs[inp])))
    put("tf_reprs", [repr(v2.Resize(256)), repr(v2.Resize([3, 4])), repr(v2.CenterCrop(224)),
                     repr(v2.ToDtype(torch.float32, scale=True))])
    lines.append("export " + ", ".join(names))
    with open(os.path.join(HERE, "image_fixtures.spl"), "w") as out:
        out.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
