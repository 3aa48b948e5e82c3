"""The reference of collectives.spl: the same collectives, inputs and printed lines with
Python's torch.distributed (Gloo). Started by run_ranks.py as the Simple ranks are."""
import datetime
import json
import os

import torch
import torch.distributed as dist


def show(name, tensors):
    values = [float(v) for t in tensors for v in t.to(torch.float64).flatten().tolist()]
    print(f"{name}:" + "".join(f" {v}" for v in values), flush=True)


dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=30))
rank = dist.get_rank()
n = dist.get_world_size()
show("rank", [torch.arange(rank, rank + 1)])


def x():
    return torch.arange(1, 7, dtype=torch.float32) + 10.0 * rank


for op in ["SUM", "PRODUCT", "MIN", "MAX", "AVG"]:
    t = x()
    dist.all_reduce(t, op=getattr(dist.ReduceOp, op))
    show(f"all_reduce {op}", [t])
for op in ["BAND", "BOR", "BXOR"]:
    t = torch.arange(6, dtype=torch.int64) + 3 * rank
    dist.all_reduce(t, op=getattr(dist.ReduceOp, op))
    show(f"all_reduce {op}", [t])

b = x()
dist.broadcast(b, src=n - 1)
show("broadcast", [b])

r = x()
dist.reduce(r, dst=0)
if rank == 0:
    show("reduce", [r])

outs = [torch.zeros(6) for _ in range(n)]
dist.all_gather(outs, x())
show("all_gather", outs)

flat = torch.zeros(n * 6)
dist.all_gather_into_tensor(flat, x())
show("all_gather_into_tensor", [flat])

if rank == 1:
    gathered = [torch.zeros(6) for _ in range(n)]
    dist.gather(x(), gather_list=gathered, dst=1)
    show("gather", gathered)
else:
    dist.gather(x(), dst=1)

piece = torch.zeros(3)
if rank == 0:
    dist.scatter(piece, scatter_list=[torch.arange(3, dtype=torch.float32) * (i + 1) + 100.0 for i in range(n)], src=0)
else:
    dist.scatter(piece, src=0)
show("scatter", [piece])

rs = torch.zeros(2)
dist.reduce_scatter_tensor(rs, torch.arange(n * 2, dtype=torch.float32) + rank)
show("reduce_scatter_tensor", [rs])

a2a = torch.zeros(n * 2)
dist.all_to_all_single(a2a, torch.arange(n * 2, dtype=torch.float32) + 100.0 * rank)
show("all_to_all_single", [a2a])

sizes_in = [j + 1 for j in range(n)]
sizes_out = [rank + 1 for _ in range(n)]
a2av = torch.zeros(n * (rank + 1))
dist.all_to_all_single(a2av, torch.arange(n * (n + 1) // 2, dtype=torch.float32) + 100.0 * rank,
                       output_split_sizes=sizes_out, input_split_sizes=sizes_in)
show("all_to_all_single uneven", [a2av])

dist.barrier()

got = torch.zeros(6)
sending = dist.isend(x(), (rank + 1) % n)
sender = dist.recv(got, src=(rank + n - 1) % n)
sending.wait()
show("send/recv", [got, torch.arange(sender, sender + 1)])

if rank == 0:
    any_got = torch.zeros(6)
    frm = dist.recv(any_got)
    show("recv any", [any_got, torch.arange(frm, frm + 1)])
elif rank == 1:
    dist.send(x() * 2.0, 0)

t = x()
work = dist.all_reduce(t, async_op=True)
work.wait()
show("all_reduce async", [t, torch.arange(1 if work.is_completed() else 0, 2)[0:1]])

if "MIXED" not in os.environ:
    pair = dist.new_group([0, n - 1])
    gt = x()
    dist.all_reduce(gt, group=pair)
    if rank in (0, n - 1):
        show("group all_reduce", [gt, torch.arange(dist.get_rank(group=pair), dist.get_rank(group=pair) + 1)])
        gb = x()
        dist.broadcast(gb, src=n - 1, group=pair)
        show("group broadcast", [gb])


def spl_text(value):
    """An object as Simple prints it: JSON's form with nil, true and false."""
    return json.dumps(value).replace("null", "nil")


objects = [{"lr": 0.5, "name": "run-7", "steps": [1, 2, 3]}, "text", 42, None, True, 2.25] if rank == n - 1 else [None] * 6
dist.broadcast_object_list(objects, src=n - 1)
print(f"objects broadcast_object_list: {spl_text(objects)}", flush=True)
gathered = [None] * n
dist.all_gather_object(gathered, {"rank": rank, "tags": [f"r{rank}" for _ in range(rank + 1)], "score": rank / 4.0})
print(f"objects all_gather_object: {spl_text(gathered)}", flush=True)


def show_held(name, t):
    shape, dtype, grad = list(t.shape), str(t.dtype).removeprefix("torch."), "true" if t.requires_grad else "false"
    print(f"held {name}: {dtype} {shape} {list(t.stride())} {t.storage_offset()} {grad}", flush=True)
    show(f"held {name} values", [t.detach()])


base = torch.arange(6, dtype=torch.float32).view(2, 3) + 100.0 * rank
held = [None] * 4
if rank == n - 1:
    held = [{"w": base[1], "step": 3}, [base.t(), torch.arange(4, dtype=torch.int64) * 7],
            torch.arange(3, dtype=torch.float64).to(torch.bfloat16) / 3.0,
            [torch.arange(2, dtype=torch.float32).requires_grad_(), torch.arange(4, dtype=torch.int64).gt(1)]]
dist.broadcast_object_list(held, src=n - 1)
show_held("view", held[0]["w"])
print(f"held step: {held[0]['step']}", flush=True)
show_held("transposed", held[1][0])
show_held("int64", held[1][1])
show_held("bfloat16", held[2])
show_held("requires_grad", held[3][0])
show_held("bool", held[3][1])
held_all = [None] * n
dist.all_gather_object(held_all, {"rank": rank, "t": torch.arange(rank + 1, dtype=torch.float64) * 0.5})
for i in range(n):
    show_held(f"gathered {held_all[i]['rank']}", held_all[i]["t"])

def cx():
    return (torch.arange(1, 4, dtype=torch.float32) + 10.0 * rank).to(torch.complex64) * complex_unit()


def complex_unit():
    return torch.view_as_complex(torch.tensor([[1.0, 2.0]], dtype=torch.float32))


ca = cx()
dist.all_reduce(ca)
show("complex all_reduce", [torch.view_as_real(ca)])
cb = cx()
dist.broadcast(cb, src=n - 1)
show("complex broadcast", [torch.view_as_real(cb)])
cg = [torch.zeros(3, dtype=torch.complex64) for _ in range(n)]
dist.all_gather(cg, cx())
show("complex all_gather", [torch.view_as_real(t) for t in cg])
c_single = torch.zeros(3 * n, dtype=torch.complex64)
dist.all_gather_single(c_single, cx())
show("complex all_gather_single", [torch.view_as_real(c_single)])
cs = torch.zeros(3, dtype=torch.complex64)
dist.scatter(cs, scatter_list=[cx() * (j + 1) for j in range(n)] if rank == 0 else None, src=0)
show("complex scatter", [torch.view_as_real(cs)])
c_a2a = torch.zeros(2 * n, dtype=torch.complex64)
dist.all_to_all_single(c_a2a, (torch.arange(2 * n, dtype=torch.float32) + 100.0 * rank).to(torch.complex64) * complex_unit())
show("complex all_to_all_single", [torch.view_as_real(c_a2a)])
rs_single = torch.zeros(2)
dist.reduce_scatter_single(rs_single, torch.arange(2 * n, dtype=torch.float32) + rank)
show("reduce_scatter_single", [rs_single])
coalesced = [x(), torch.arange(3, dtype=torch.float32) * (rank + 1)]
dist.all_reduce_coalesced(coalesced, op=dist.ReduceOp.MAX)
show("all_reduce_coalesced", coalesced)
c_outs = [[torch.zeros(2), torch.zeros(3)] for _ in range(n)]
dist.all_gather_coalesced(c_outs, [torch.arange(2, dtype=torch.float32) + rank, torch.arange(3, dtype=torch.float32) * rank])
show("all_gather_coalesced", [t for l in c_outs for t in l])

a2a_outs = [torch.zeros(2) for _ in range(n)]
dist.all_to_all(a2a_outs, [torch.arange(2, dtype=torch.float32) + 100.0 * rank + 10.0 * j for j in range(n)])
show("all_to_all", a2a_outs)
if "MIXED" not in os.environ:
    rsl = torch.zeros(2)
    dist.reduce_scatter(rsl, [torch.arange(2, dtype=torch.float32) + (rank * 10 + j) for j in range(n)])
    show("reduce_scatter", [rsl])
batch_got = torch.zeros(6)
works = dist.batch_isend_irecv([dist.P2POp(dist.isend, x(), (rank + 1) % n), dist.P2POp(dist.irecv, batch_got, (rank + n - 1) % n)])
for w in works:
    w.wait()
show("batch_isend_irecv", [batch_got])
at_dst = [None] * n
dist.gather_object({"from": rank}, object_gather_list=at_dst if rank == n - 1 else None, dst=n - 1)
if rank == n - 1:
    print(f"objects gather_object: {spl_text(at_dst)}", flush=True)
one = [None]
dist.scatter_object_list(one, scatter_object_input_list=[["s", i] for i in range(n)] if rank == 0 else None, src=0)
print(f"objects scatter_object_list: {spl_text(one)}", flush=True)
if rank == 0:
    dist.send_object_list([{"k": [1, 2]}, "two", 3.5], 1)
elif rank == 1:
    received = [None] * 3
    from_rank = dist.recv_object_list(received, src=0)
    print(f"objects recv_object_list: {spl_text(received)} {from_rank}", flush=True)
if "MIXED" not in os.environ:
    sub, subs = dist.new_subgroups_by_enumeration([[i] for i in range(n)])
    show("subgroups", [torch.arange(dist.get_rank(group=sub), dist.get_rank(group=sub) + 1), torch.arange(len(subs), len(subs) + 1)])

dist.monitored_barrier(timeout=datetime.timedelta(seconds=20), wait_all_ranks=True)
print(f"monitored_barrier: {rank}", flush=True)
dist.barrier()
dist.destroy_process_group()
print(f"done: {'true' if dist.is_initialized() else 'false'}", flush=True)
