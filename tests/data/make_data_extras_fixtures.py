#!/usr/bin/env python3
"""Writes tests/data/data_extras_fixtures.spl: what torch.utils.data's StackDataset (tuple and
dict forms), ChainDataset (and IterableDataset + IterableDataset), DistributedSampler (given
num_replicas and rank; shuffled per seed + epoch, padded or dropped) and get_worker_info give,
DataLoader batches over them after torch.manual_seed (with the global generator's next draws
afterwards), and PyTorch's error texts. Run: .venv/bin/python tests/data/make_data_extras_fixtures.py"""
import os
import sys

import torch
from torch.utils.data import (ChainDataset, DataLoader, DistributedSampler, IterableDataset, StackDataset,
                              TensorDataset, get_worker_info)

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from fixtures import error_text, write  # noqa: E402


def flat(t):
    return [float(v) for v in t.reshape(-1).double().tolist()]


def after():
    """The global generator's next draws: equal only if every earlier draw was PyTorch's."""
    return [float(v) for v in torch.rand(3).double().tolist()]


class Stream(IterableDataset):
    """Items tensor([start + i, (start + i) ** 2]) for i in 0..n, with a length."""

    def __init__(self, start, n):
        self.start, self.n = start, n

    def __iter__(self):
        return iter([torch.tensor([float(self.start + i), float((self.start + i) ** 2)]) for i in range(self.n)])

    def __len__(self):
        return self.n


def stack_cases(v):
    x = torch.arange(12.0).reshape(6, 2)
    y = torch.arange(6) * 10
    words = ["a", "b", "c", "d", "e", "f"]
    pair = StackDataset(TensorDataset(x), y)
    v["stack_len"] = len(pair)
    item = pair[4]
    v["stack_item"] = [[flat(t) for t in item[0]], int(item[1])]
    keyed = StackDataset(image=x, label=y, word=words)
    v["stack_dict_keys"] = list(keyed[2].keys())
    v["stack_dict_item"] = [flat(keyed[2]["image"]), int(keyed[2]["label"]), keyed[-1]["word"]]
    torch.manual_seed(0)
    loader = DataLoader(keyed, batch_size=4, shuffle=True)
    v["stack_dict_batches"] = [[[flat(b["image"]), b["label"].tolist(), b["word"]] for b in loader] for _ in range(2)]
    v["stack_dict_after"] = after()
    torch.manual_seed(1)
    v["stack_tuple_batches"] = [[flat(b[0]), b[1].tolist()] for b in DataLoader(StackDataset(x, y), batch_size=4, shuffle=True)]
    v["stack_tuple_after"] = after()
    v["error_stack_size"] = error_text(lambda: StackDataset(x, torch.arange(5)))
    v["error_stack_dict_size"] = error_text(lambda: StackDataset(a=x, b=words[:2]))
    v["error_stack_empty"] = error_text(lambda: StackDataset())


def chain_cases(v):
    chain = ChainDataset([Stream(0, 3), Stream(10, 4)])
    v["chain_items"] = [flat(t) for t in chain]
    v["chain_len"] = len(chain)
    v["chain_add_items"] = [flat(t) for t in Stream(0, 2) + Stream(5, 1)]
    torch.manual_seed(0)
    v["chain_batches"] = [[flat(b) for b in DataLoader(chain, batch_size=3)] for _ in range(2)]
    v["chain_batches_drop"] = [flat(b) for b in DataLoader(chain, batch_size=3, drop_last=True)]
    v["chain_loader_len"] = len(DataLoader(chain, batch_size=3))
    v["chain_after"] = after()
    bad = ChainDataset([Stream(0, 2), TensorDataset(torch.arange(3))])
    it = iter(bad)
    v["chain_bad_first"] = [flat(next(it)), flat(next(it))]
    v["error_chain_member"] = error_text(lambda: next(it))
    v["error_chain_len"] = error_text(lambda: len(bad))


def distributed_cases(v):
    data = list(range(10))
    for name, kw in [("shuffle", {}), ("seed5", {"seed": 5}), ("in_order", {"shuffle": False}),
                     ("drop", {"drop_last": True}), ("in_order_drop", {"shuffle": False, "drop_last": True})]:
        shares = []
        for rank in range(3):
            s = DistributedSampler(data, num_replicas=3, rank=rank, **kw)
            epochs = [list(s)]
            s.set_epoch(1)
            epochs.append(list(s))
            shares.append(epochs)
        v["dist_" + name] = shares
        v["dist_" + name + "_len"] = len(DistributedSampler(data, num_replicas=3, rank=0, **kw))
    # fewer items than replicas: padded by repeating the list, or dropped to nothing
    v["dist_few"] = [list(DistributedSampler(data[:2], num_replicas=5, rank=r, shuffle=False)) for r in range(5)]
    v["dist_few_drop_len"] = len(DistributedSampler(data[:2], num_replicas=5, rank=0, drop_last=True))
    torch.manual_seed(3)
    ds = TensorDataset(torch.arange(10))
    s = DistributedSampler(ds, num_replicas=2, rank=1)
    v["dist_loader"] = [[b[0].tolist() for b in DataLoader(ds, batch_size=2, sampler=s)] for _ in range(2)]
    v["dist_loader_after"] = after()
    v["error_dist_rank"] = error_text(lambda: DistributedSampler(data, num_replicas=2, rank=2))
    v["error_dist_negative_rank"] = error_text(lambda: DistributedSampler(data, num_replicas=2, rank=-1))
    v["error_dist_no_group"] = error_text(lambda: DistributedSampler(data))
    v["worker_info"] = get_worker_info()


def main():
    v = {}
    stack_cases(v)
    chain_cases(v)
    distributed_cases(v)
    write(os.path.join(HERE, "data_extras_fixtures.spl"), __file__, v)


if __name__ == "__main__":
    main()
