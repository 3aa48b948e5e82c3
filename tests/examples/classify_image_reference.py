#!/usr/bin/env python3
"""The reference for examples/classify_image.spl: writes, into OUT_DIR, torchvision's resnet18
with random weights (torch.manual_seed(0), then every BatchNorm's weight, bias and running
statistics drawn anew, so that the output is not the near-uniform one of a fresh init) as
resnet18.pt, and a 320 x 240 JPEG of seeded noise over a gradient as image.jpg; then prints,
as JSON, the top-5 classes and probabilities torchvision gives for that image through
read_image + Resize(256) + CenterCrop(224) + ToDtype(float32, scale) + Normalize(ImageNet).

usage: .venv/bin/python classify_image_reference.py OUT_DIR
"""
import json
import os
import sys

import torch
import torchvision
from PIL import Image
from torchvision.io import ImageReadMode, read_image
from torchvision.transforms import v2


def main():
    out = sys.argv[1]
    torch.manual_seed(0)
    model = torchvision.models.resnet18()
    with torch.no_grad():
        for m in model.modules():
            if isinstance(m, torch.nn.BatchNorm2d):
                m.weight.uniform_(0.5, 1.5)
                m.bias.normal_(0.0, 0.1)
                m.running_mean.normal_(0.0, 0.1)
                m.running_var.uniform_(0.5, 1.5)
    weights = os.path.join(out, "resnet18.pt")
    torch.save(model.state_dict(), weights)
    g = torch.Generator().manual_seed(1)
    ramp = torch.arange(320).view(1, 320, 1) // 2 + torch.arange(240).view(240, 1, 1) // 3
    pixels = ((ramp + torch.randint(0, 64, (240, 320, 3), generator=g)) % 256).to(torch.uint8)
    image_path = os.path.join(out, "image.jpg")
    Image.fromarray(pixels.numpy()).save(image_path, quality=90)

    preprocess = v2.Compose([v2.Resize(256), v2.CenterCrop(224), v2.ToDtype(torch.float32, scale=True),
                             v2.Normalize([0.485, 0.456, 0.406], [0.229, 0.224, 0.225])])
    model.eval()
    with torch.no_grad():
        probabilities = model(preprocess(read_image(image_path, ImageReadMode.RGB)).unsqueeze(0)).softmax(1)[0]
    top = probabilities.topk(5)
    print(json.dumps({"weights": weights, "image": image_path, "classes": top.indices.tolist(),
                      "probabilities": top.values.double().tolist()}))


if __name__ == "__main__":
    main()
