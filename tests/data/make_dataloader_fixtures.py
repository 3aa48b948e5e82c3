#!/usr/bin/env python3
"""Writes tests/data/dataloader_fixtures.spl: what torch.utils.data gives, for
dataloader_spec.spl to compare lib.torch.data against. DataLoader batches (indices and values)
over three epochs after torch.manual_seed(s), with and without shuffle and drop_last, and the
global generator's next draws afterwards (so a missing or extra draw shows); the samplers'
orders; random_split; default_collate of tuples, dicts and numbers; a custom collate_fn that
pads with pad_sequence; the transforms, made by torchvision's own classes on tensors (the
version pinned in scripts/setup.sh); and PyTorch's and torchvision's error texts.
Run: .venv/bin/python tests/data/make_dataloader_fixtures.py"""
import os
import sys

import torch
from torch.nn.utils.rnn import pad_sequence
from torch.utils.data import (IterableDataset, BatchSampler, ConcatDataset, DataLoader, RandomSampler, SequentialSampler,
                              Subset, SubsetRandomSampler, TensorDataset, WeightedRandomSampler, random_split)
from torch.utils.data._utils.collate import default_collate
import torchvision.transforms as T

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from fixtures import error_text, write  # noqa: E402

N = 10


def tensors():
    """The dataset the loader cases share: x row i is [i - 3, i + 0.5] (float32), y is i."""
    i = torch.arange(N)
    x = torch.stack([i.float() - 3, i.float() + 0.5], 1)
    return x, i


def batches(loader, epochs):
    """Per epoch, per batch: [y values (the indices), x values flattened]."""
    out = []
    for _ in range(epochs):
        out.append([[yb.tolist(), [float(v) for v in xb.reshape(-1).tolist()]] for xb, yb in loader])
    return out


def after():
    """The global generator's next draws: equal only if every earlier draw was PyTorch's."""
    return [float(v) for v in torch.rand(3).double().tolist()]


class Stream(IterableDataset):
    """Items [i, i * i] for i in 0..n, as a stream (with a length, as PyTorch allows)."""

    def __init__(self, n):
        self.n = n

    def __iter__(self):
        return iter([torch.tensor([float(i), float(i * i)]) for i in range(self.n)])

    def __len__(self):
        return self.n


def flat(t):
    return [float(v) for v in t.reshape(-1).double().tolist()]


# --- the transforms: torchvision's own classes (torchvision.transforms, which lib.torch's
# mirror), called on tensors ---------------------------------------------------------------
def rot90(img):
    """lib.torch's RandomRotation90, which torchvision has no class for (its RandomRotation
    interpolates any angle): the quarter-turn count drawn as torchvision draws, torch.rot90."""
    k = torch.randint(0, 4, size=(1,)).item()
    return torch.rot90(img, k, [-2, -1])


class FlipDataset:
    """get_item draws (a horizontal flip of a 1x1x3 image): its draws interleave with the
    loader's."""
    def __len__(self):
        return 6

    def __getitem__(self, i):
        img = torch.arange(3.0).reshape(1, 1, 3) + 10 * i
        return T.RandomHorizontalFlip()(img), i


def pad_collate(batch):
    seqs = [item[0] for item in batch]
    lengths = torch.tensor([s.shape[0] for s in seqs])
    labels = torch.tensor([item[1] for item in batch])
    return pad_sequence(seqs, batch_first=True), lengths, labels


def sequences():
    return [(torch.arange(float(2 * n)).reshape(n, 2) + 100 * i, i) for i, n in enumerate([3, 1, 4, 2, 5])]


def main():
    v = {}
    x, y = tensors()
    ds = TensorDataset(x, y)
    # --- DataLoader over 3 epochs ------------------------------------------------------
    for seed in (0, 1, 42):
        for bs, drop in ((3, False), (3, True), (4, False)):
            name = f"shuffle_s{seed}_b{bs}_{'drop' if drop else 'keep'}"
            torch.manual_seed(seed)
            loader = DataLoader(ds, batch_size=bs, shuffle=True, drop_last=drop)
            v[name] = batches(loader, 3)
            v[name + "_after"] = after()
            v[name + "_len"] = len(loader)
    torch.manual_seed(0)
    v["sequential"] = batches(DataLoader(ds, batch_size=4), 2)
    v["sequential_after"] = after()
    torch.manual_seed(0)
    items = [[y_.item(), flat(x_)] for x_, y_ in DataLoader(ds, batch_size=None, shuffle=True)]
    v["no_batch"] = items
    v["no_batch_after"] = after()
    torch.manual_seed(3)
    loader = DataLoader(FlipDataset(), batch_size=4, shuffle=True)
    v["flip_loader"] = [[[flat(xb), yb.tolist()] for xb, yb in loader] for _ in range(2)]
    v["flip_loader_after"] = after()
    # --- samplers -------------------------------------------------------------------------
    data = list(range(N))
    samplers = {
        "random": lambda: RandomSampler(data),
        "random_4": lambda: RandomSampler(data, num_samples=4),
        "random_25": lambda: RandomSampler(data, num_samples=25),
        "random_30": lambda: RandomSampler(data, num_samples=30),
        "random_replacement": lambda: RandomSampler(data, replacement=True),
        "random_replacement_70": lambda: RandomSampler(data, replacement=True, num_samples=70),
        "subset_random": lambda: SubsetRandomSampler([10, 20, 30, 40, 50, 60]),
        "weighted": lambda: WeightedRandomSampler([0.1, 0.9, 0.4, 0.7, 3.0, 0.6], 8),
        "weighted_no_replacement": lambda: WeightedRandomSampler([0.9, 0.4, 0.05, 0.2, 0.3, 0.1], 5, replacement=False),
        "batch_keep": lambda: BatchSampler(SequentialSampler(data), batch_size=3, drop_last=False),
        "batch_drop": lambda: BatchSampler(SequentialSampler(data), batch_size=3, drop_last=True),
        "batch_random": lambda: BatchSampler(RandomSampler(data), batch_size=4, drop_last=False),
    }
    for name, make in samplers.items():
        torch.manual_seed(5)
        s = make()
        v["sampler_" + name] = [list(s), list(s)]   # two passes: each draws afresh
        v["sampler_" + name + "_len"] = len(s)
        v["sampler_" + name + "_after"] = after()
    # --- random_split -------------------------------------------------------------------------
    for name, n, lengths in (("ints", 10, [3, 7]), ("fractions", 30, [0.3, 0.3, 0.4]), ("remainder", 11, [0.5, 0.5]),
                             ("three", 7, [2, 0, 5])):
        torch.manual_seed(0)
        parts = random_split(list(range(100, 100 + n)), lengths)
        v["split_" + name] = [list(p.indices) for p in parts]
        v["split_" + name + "_first"] = [p[0] if len(p) else -1 for p in parts]
        v["split_" + name + "_after"] = after()
    # --- ConcatDataset, Subset ----------------------------------------------------------------
    cat = ConcatDataset([[0, 1, 2], [10, 11], [20, 21, 22, 23]])
    v["concat_sizes"] = cat.cumulative_sizes
    v["concat_items"] = [cat[i] for i in range(len(cat))] + [cat[-1], cat[-9]]
    sub = Subset(list(range(100, 110)), [9, 0, 4])
    v["subset_items"] = [sub[0], sub[1], sub[2], sub[-1]]
    # --- default_collate -----------------------------------------------------------------------
    batch = default_collate([(torch.tensor([1.0, 2.0]), 3, 0.5, "a", True),
                             (torch.tensor([3.0, 4.0]), 4, 1.5, "b", False)])
    v["collate_tuple_values"] = [flat(batch[0]), batch[1].tolist(), [float(f) for f in batch[2].tolist()], batch[3], batch[4].tolist()]
    v["collate_tuple_dtypes"] = [str(batch[i].dtype).replace("torch.", "") for i in (0, 1, 2, 4)]
    v["collate_tuple_shape"] = list(batch[0].shape)
    batch = default_collate([{"x": torch.ones(2, 2), "y": 1.0, "nested": [1, torch.tensor(2)]},
                             {"x": torch.zeros(2, 2), "y": 2.0, "nested": [3, torch.tensor(4)]}])
    v["collate_dict_keys"] = list(batch.keys())
    v["collate_dict_x_shape"] = list(batch["x"].shape)
    v["collate_dict_x"] = flat(batch["x"])
    v["collate_dict_y"] = [float(f) for f in batch["y"].tolist()]
    v["collate_dict_y_dtype"] = str(batch["y"].dtype).replace("torch.", "")
    v["collate_dict_nested"] = [batch["nested"][0].tolist(), batch["nested"][1].tolist()]
    mixed = default_collate([1, 2.5, 3])
    v["collate_mixed"] = [float(f) for f in mixed.tolist()]
    v["collate_mixed_dtype"] = str(mixed.dtype).replace("torch.", "")
    # --- a custom collate_fn padding with pad_sequence ----------------------------------------
    seqs = sequences()
    for name, seed, shuffle in (("pad_in_order", 0, False), ("pad_shuffled", 3, True)):
        torch.manual_seed(seed)
        out = []
        for padded, lengths, labels in DataLoader(seqs, batch_size=2, shuffle=shuffle, collate_fn=pad_collate):
            out.append([flat(padded), list(padded.shape), lengths.tolist(), labels.tolist()])
        v[name] = out
    # --- transforms -----------------------------------------------------------------------------
    img = torch.arange(2 * 6 * 6, dtype=torch.float32).reshape(2, 6, 6) / 10
    augment = T.Compose([T.RandomCrop(4, padding=1), T.RandomHorizontalFlip(), rot90, T.Normalize([0.5, 1.0], [2.0, 4.0])])
    for seed in (0, 1, 2):
        torch.manual_seed(seed)
        v[f"transforms_s{seed}"] = [flat(augment(img)) for _ in range(4)]
        v[f"transforms_s{seed}_after"] = after()
    torch.manual_seed(4)
    v["crop_edge"] = flat(T.RandomCrop([5, 3], padding=[1, 2], padding_mode="edge")(img))
    v["crop_reflect"] = flat(T.RandomCrop(4, padding=[1, 2, 2, 0], padding_mode="reflect")(img))
    u8 = torch.arange(2 * 4 * 4).to(torch.uint8).reshape(2, 4, 4)
    crop_u8 = T.RandomCrop(5, padding=1, padding_mode="reflect")(u8)
    v["crop_uint8_reflect"] = crop_u8.reshape(-1).tolist()
    v["crop_uint8_dtype"] = str(crop_u8.dtype).replace("torch.", "")
    v["crop_pad_if_needed"] = flat(T.RandomCrop([8, 7], pad_if_needed=True, fill=-1)(img))
    vflip = T.RandomVerticalFlip(p=0.7)
    v["crop_vflip"] = [flat(vflip(img)) for _ in range(3)]
    v["crop_fill_after"] = after()
    # a 2-d image, a 4-d float64 batch, Normalize in place in float64, flips at p 1 and 0
    torch.manual_seed(6)
    v["crop_2d_reflect"] = flat(T.RandomCrop(3, padding=2, padding_mode="reflect")(img[0]))
    batch64 = torch.arange(2 * 2 * 4 * 4, dtype=torch.float64).reshape(2, 2, 4, 4) / 7
    v["crop_4d_edge"] = flat(T.RandomCrop([3, 5], pad_if_needed=True, padding_mode="edge")(batch64))
    target = batch64[0].clone()
    returned = T.Normalize([0.1, -2.0], [0.3, 5.0], inplace=True)(target)
    v["normalize_inplace"] = [flat(returned), flat(target)]
    v["flip_always_never"] = [flat(T.RandomHorizontalFlip(p=1.0)(img)), flat(T.RandomVerticalFlip(p=0.0)(img))]
    v["crop_more_after"] = after()
    # --- errors ---------------------------------------------------------------------------------
    v["error_batch_size"] = error_text(lambda: DataLoader(ds, batch_size=0))
    v["error_stack"] = error_text(lambda: default_collate([torch.zeros(3), torch.zeros(3), torch.zeros(2)]))
    v["error_stack_2d"] = error_text(lambda: default_collate([torch.zeros(2, 3), torch.zeros(3, 2)]))
    v["error_tensor_dataset"] = error_text(lambda: TensorDataset(torch.zeros(3, 2), torch.zeros(4)))
    v["error_index"] = error_text(lambda: ds[10])
    v["error_subset_index"] = error_text(lambda: Subset(list(range(5)), [0, 1])[2])
    v["error_sampler_shuffle"] = error_text(lambda: DataLoader(ds, sampler=SequentialSampler(ds), shuffle=True))
    v["error_batch_sampler"] = error_text(lambda: DataLoader(ds, batch_size=2, batch_sampler=BatchSampler(SequentialSampler(ds), 2, False)))
    v["error_num_workers"] = error_text(lambda: DataLoader(ds, num_workers=-1))
    v["error_timeout"] = error_text(lambda: DataLoader(ds, timeout=-1))
    v["error_no_batch_drop_last"] = error_text(lambda: DataLoader(ds, batch_size=None, drop_last=True))
    v["error_persistent"] = error_text(lambda: DataLoader(ds, persistent_workers=True))
    v["error_prefetch"] = error_text(lambda: DataLoader(ds, prefetch_factor=2))
    v["error_split_sum"] = error_text(lambda: random_split(list(range(10)), [3, 6]))
    v["error_split_fraction"] = error_text(lambda: random_split(list(range(10)), [1.5, -0.5]))
    v["error_collate_sizes"] = error_text(lambda: default_collate([[1, 2], [3]]))
    v["error_random_sampler"] = error_text(lambda: RandomSampler([]))
    v["error_weighted_shape"] = error_text(lambda: WeightedRandomSampler([[1.0, 2.0], [3.0, 4.0]], 2))
    v["error_weighted_num_samples"] = error_text(lambda: WeightedRandomSampler([1.0, 2.0], 0))
    v["error_concat_empty"] = error_text(lambda: ConcatDataset([]))
    v["error_concat_index"] = error_text(lambda: cat[-10])
    v["error_normalize_dtype"] = error_text(lambda: T.Normalize([0.0], [1.0])(torch.zeros(1, 2, 2, dtype=torch.int64)))
    v["error_normalize_dim"] = error_text(lambda: T.Normalize([0.0], [1.0])(torch.zeros(3, 4)))
    v["error_normalize_std"] = error_text(lambda: T.Normalize([0.0], [0.0])(torch.zeros(1, 2, 2)))
    v["error_crop_size"] = error_text(lambda: T.RandomCrop(7)(img))
    # With torch.Generator objects: the loader, the samplers and random_split draw from it.
    g = torch.Generator().manual_seed(7)
    v["gen_loader_batches"] = batches(DataLoader(TensorDataset(*tensors()), batch_size=4, shuffle=True, generator=g), 3)
    v["gen_loader_after"] = [float(x) for x in torch.rand(3, generator=g).double().tolist()]
    g = torch.Generator().manual_seed(11)
    v["gen_random_long"] = list(RandomSampler(list(range(7)), num_samples=17, generator=g))
    v["gen_random_replacement"] = list(RandomSampler(list(range(7)), replacement=True, num_samples=9, generator=g))
    v["gen_subset"] = [int(i) for i in SubsetRandomSampler([10, 20, 30, 40, 50], generator=g)]
    v["gen_weighted"] = [int(i) for i in WeightedRandomSampler([0.1, 0.5, 0.2, 0.2], 6, generator=g)]
    v["gen_split"] = [[p[i] for i in range(len(p))] for p in random_split(list(range(100, 110)), [3, 7], generator=g)]
    v["gen_samplers_after"] = [float(x) for x in torch.rand(3, generator=g).double().tolist()]

    # An IterableDataset: items in stream order, batched; the base seed still drawn per pass.
    torch.manual_seed(8)
    stream = Stream(7)
    v["stream_batches"] = [[flat(b) for b in DataLoader(stream, batch_size=3)] for _ in range(2)]
    v["stream_batches_drop"] = [flat(b) for b in DataLoader(stream, batch_size=3, drop_last=True)]
    v["stream_unbatched"] = [flat(b) for b in DataLoader(stream, batch_size=None)]
    v["stream_len"] = len(DataLoader(stream, batch_size=3))
    v["stream_after"] = after()
    v["error_stream_shuffle"] = error_text(lambda: DataLoader(stream, shuffle=True))
    write(os.path.join(HERE, "dataloader_fixtures.spl"), __file__, v)


if __name__ == "__main__":
    main()
