"""Python's side of bench/models/compare.sh: torchvision's resnet18 in eval mode at batch 1 and 16
(3x224x224), and the small CNN of models.spl at batch 1 and 16 (3x32x32) eager, traced +
frozen (torch.jit.trace, then torch.jit.freeze) and traced + torch.jit.optimize_for_inference,
under no_grad, with the weights files that
compare.sh had `models.py --write DIR` make (random, seeded: the same files for both sides).
Best of N after warm-ups; prints `python <what>: <ms> ms`.
    .venv/bin/python bench/models/models.py DIR THREADS"""
import os
import sys
import time

import torch
import torchvision


class Cnn(torch.nn.Module):
    """models.spl's Cnn: two conv-bn-relu-pool stages and a linear layer."""

    def __init__(self):
        super().__init__()
        self.conv1 = torch.nn.Conv2d(3, 16, 3, padding=1)
        self.bn1 = torch.nn.BatchNorm2d(16)
        self.conv2 = torch.nn.Conv2d(16, 32, 3, padding=1)
        self.bn2 = torch.nn.BatchNorm2d(32)
        self.fc = torch.nn.Linear(32 * 8 * 8, 10)

    def forward(self, x):
        x = torch.nn.functional.max_pool2d(torch.relu(self.bn1(self.conv1(x))), 2)
        x = torch.nn.functional.max_pool2d(torch.relu(self.bn2(self.conv2(x))), 2)
        return self.fc(x.flatten(1))


def write(folder):
    os.makedirs(folder, exist_ok=True)
    torch.manual_seed(0)
    torch.save(torchvision.models.resnet18().state_dict(), os.path.join(folder, "resnet18.pt"))
    cnn = Cnn()
    with torch.no_grad():  # non-trivial running statistics, so that folding them matters
        for bn in (cnn.bn1, cnn.bn2):
            bn.running_mean.uniform_(-0.5, 0.5)
            bn.running_var.uniform_(0.5, 1.5)
    torch.save(cnn.state_dict(), os.path.join(folder, "cnn.pt"))


def best_ms(fn, warmup, n):
    with torch.no_grad():
        for _ in range(warmup):
            fn()
        best = float("inf")
        for _ in range(n):
            start = time.perf_counter()
            fn()
            best = min(best, time.perf_counter() - start)
    return best * 1000.0


def main():
    if sys.argv[1] == "--write":
        return write(sys.argv[2])
    folder = sys.argv[1]
    torch.set_num_threads(int(sys.argv[2]))
    resnet = torchvision.models.resnet18()
    resnet.load_state_dict(torch.load(os.path.join(folder, "resnet18.pt")))
    resnet.eval()
    for batch, n in ((1, 10), (16, 3)):
        x = torch.randn(batch, 3, 224, 224)
        print(f"python resnet18 batch {batch}: {best_ms(lambda: resnet(x), 2, n):.3f} ms", flush=True)
    cnn = Cnn()
    cnn.load_state_dict(torch.load(os.path.join(folder, "cnn.pt")))
    cnn.eval()
    for batch in (1, 16):
        x = torch.randn(batch, 3, 32, 32)
        eager = best_ms(lambda: cnn(x), 10, 100)
        print(f"python cnn batch {batch} eager: {eager:.3f} ms", flush=True)
        # the traced + frozen (and optimized) Simple CNN is compared with Python's eager run
        print(f"python cnn batch {batch} traced+frozen (python: eager): {eager:.3f} ms", flush=True)
        with torch.no_grad():
            frozen = torch.jit.freeze(torch.jit.trace(cnn, [x]))
        ms = best_ms(lambda: frozen(x), 10, 100)
        print(f"python cnn batch {batch} traced+frozen, both sides: {ms:.3f} ms", flush=True)
        print(f"python cnn batch {batch} traced+optimize_for_inference (python: eager): {eager:.3f} ms", flush=True)
        with torch.no_grad():
            optimized = torch.jit.optimize_for_inference(torch.jit.trace(cnn, [x]))
        ms = best_ms(lambda: optimized(x), 10, 100)
        print(f"python cnn batch {batch} traced+optimize_for_inference, both sides: {ms:.3f} ms", flush=True)


if __name__ == "__main__":
    main()
