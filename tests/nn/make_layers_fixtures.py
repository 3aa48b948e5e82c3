#!/usr/bin/env python3
"""Writes tests/nn/layers_fixtures.spl: torch.nn's normalisation layers (LayerNorm, GroupNorm,
RMSNorm, LocalResponseNorm, BatchNorm1d/2d/3d, InstanceNorm1d/2d/3d), dropout layers and masks,
Embedding and EmbeddingBag, their functional forms and their errors, run by Python PyTorch on
the pinned wheel. layers_spec.spl replays each case in the same order of random draws.

    .venv/bin/python tests/nn/make_layers_fixtures.py
"""
import os
import sys
import warnings

import torch
import torch.nn as nn
import torch.nn.functional as F

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from fixtures import constructed, error_text, flat, module_case, upstream, write  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))


def bn_case(v, name, make, shape, seed):
    """Two training steps (the second with backward), then one forward in eval mode."""
    m = constructed(v, name, make, seed)
    m(torch.randn(*shape))
    x = torch.randn(*shape, requires_grad=True)
    out = m(x)
    v[name + "_train_out"] = flat(out)
    (out * upstream(out)).sum().backward()
    v[name + "_grads"] = [flat(p.grad) for _, p in m.named_parameters()]
    v[name + "_input_grad"] = flat(x.grad)
    v[name + "_buffers"] = [flat(b) for n, b in m.named_buffers() if n != "num_batches_tracked"]
    v[name + "_tracked"] = [int(b) for n, b in m.named_buffers() if n == "num_batches_tracked"]
    m.eval()
    v[name + "_eval_out"] = flat(m(torch.randn(*shape)))


def main():
    v = {}
    # --- LayerNorm, GroupNorm, RMSNorm, LocalResponseNorm --------------------------------
    module_case(v, "layernorm", lambda: nn.LayerNorm(4), lambda: [torch.randn(2, 3, 4, requires_grad=True)], seed=1)
    module_case(v, "layernorm_2d_nobias", lambda: nn.LayerNorm([3, 4], eps=1e-3, bias=False), lambda: [torch.randn(2, 3, 4)], seed=2)
    module_case(v, "layernorm_noaffine_f64", lambda: nn.LayerNorm(5, elementwise_affine=False, dtype=torch.float64),
                lambda: [torch.randn(3, 5, dtype=torch.float64, requires_grad=True)], seed=3)
    module_case(v, "groupnorm", lambda: nn.GroupNorm(2, 4), lambda: [torch.randn(2, 4, 3, 3, requires_grad=True)], seed=4)
    module_case(v, "groupnorm_noaffine", lambda: nn.GroupNorm(3, 6, eps=1e-4, affine=False), lambda: [torch.randn(2, 6, 5, requires_grad=True)], seed=5)
    module_case(v, "rmsnorm", lambda: nn.RMSNorm([3, 4]), lambda: [torch.randn(2, 3, 4, requires_grad=True)], seed=6)
    module_case(v, "rmsnorm_eps", lambda: nn.RMSNorm(4, eps=1e-6, elementwise_affine=False), lambda: [torch.randn(3, 4, requires_grad=True)], seed=7)
    module_case(v, "lrn3d", lambda: nn.LocalResponseNorm(3), lambda: [torch.randn(2, 5, 4, requires_grad=True)], seed=8)
    module_case(v, "lrn4d", lambda: nn.LocalResponseNorm(2, alpha=1e-3, beta=0.5, k=2.0), lambda: [torch.randn(2, 5, 3, 3, requires_grad=True)], seed=9)

    # --- BatchNorm: two training steps, running statistics, then eval -------------------
    bn_case(v, "bn1d", lambda: nn.BatchNorm1d(3), (4, 3), seed=10)
    bn_case(v, "bn1d_cma", lambda: nn.BatchNorm1d(3, momentum=None), (4, 3, 5), seed=11)
    bn_case(v, "bn2d_noaffine", lambda: nn.BatchNorm2d(3, affine=False), (2, 3, 4, 4), seed=12)
    bn_case(v, "bn2d_untracked", lambda: nn.BatchNorm2d(3, track_running_stats=False), (2, 3, 3, 3), seed=13)
    bn_case(v, "bn3d", lambda: nn.BatchNorm3d(2, eps=1e-3, momentum=0.3), (2, 2, 3, 3, 3), seed=14)
    bn_case(v, "bn1d_nobias", lambda: nn.BatchNorm1d(4, bias=False), (5, 4), seed=15)

    # --- InstanceNorm ---------------------------------------------------------------------
    module_case(v, "in1d", lambda: nn.InstanceNorm1d(3), lambda: [torch.randn(2, 3, 5, requires_grad=True)], seed=16)
    module_case(v, "in2d_affine", lambda: nn.InstanceNorm2d(3, affine=True), lambda: [torch.randn(2, 3, 4, 4, requires_grad=True)], seed=17)
    module_case(v, "in2d_unbatched", lambda: nn.InstanceNorm2d(3), lambda: [torch.randn(3, 4, 4, requires_grad=True)], seed=18)
    module_case(v, "in3d", lambda: nn.InstanceNorm3d(2, affine=True), lambda: [torch.randn(2, 2, 3, 3, 3)], seed=19)
    bn_case(v, "in1d_tracked", lambda: nn.InstanceNorm1d(3, track_running_stats=True), (2, 3, 6), seed=20)

    # --- Dropout: masks after the same seed ---------------------------------------------
    module_case(v, "dropout", lambda: nn.Dropout(0.3), lambda: [torch.randn(4, 5, requires_grad=True)], seed=21)
    module_case(v, "dropout_eval", lambda: nn.Dropout(), lambda: [torch.randn(4, 5, requires_grad=True)], seed=22, train=False)
    module_case(v, "dropout1d", lambda: nn.Dropout1d(0.5), lambda: [torch.randn(2, 4, 3, requires_grad=True)], seed=23)
    module_case(v, "dropout1d_unbatched", lambda: nn.Dropout1d(0.5), lambda: [torch.randn(4, 3, requires_grad=True)], seed=24)
    module_case(v, "dropout2d", lambda: nn.Dropout2d(0.4), lambda: [torch.randn(2, 4, 3, 3, requires_grad=True)], seed=25)
    module_case(v, "dropout3d", lambda: nn.Dropout3d(), lambda: [torch.randn(2, 3, 2, 2, 2, requires_grad=True)], seed=26)
    module_case(v, "dropout3d_unbatched", lambda: nn.Dropout3d(0.5), lambda: [torch.randn(3, 2, 2, 2, requires_grad=True)], seed=27)
    module_case(v, "alphadropout", lambda: nn.AlphaDropout(0.2), lambda: [torch.randn(4, 5, requires_grad=True)], seed=28)
    module_case(v, "featurealphadropout", lambda: nn.FeatureAlphaDropout(0.4), lambda: [torch.randn(2, 4, 3, 3, requires_grad=True)], seed=29)
    torch.manual_seed(30)
    x = torch.randn(3, 4)
    v["dropout_inplace"] = flat(nn.Dropout(0.5, inplace=True)(x))
    v["dropout_inplace_x"] = flat(x)
    v["dropout_reprs"] = [repr(nn.Dropout(p=0.1, inplace=True)), repr(nn.Dropout(1)), repr(nn.Dropout2d()), repr(nn.AlphaDropout(0.25))]

    # --- Embedding ----------------------------------------------------------------------
    idx = lambda: [torch.tensor([[1, 2, 4], [4, 3, 9]])]
    module_case(v, "embedding", lambda: nn.Embedding(10, 3), idx, seed=31)
    module_case(v, "embedding_pad", lambda: nn.Embedding(10, 3, padding_idx=0), lambda: [torch.tensor([0, 2, 0, 5])], seed=32)
    module_case(v, "embedding_negpad", lambda: nn.Embedding(6, 2, padding_idx=-2), lambda: [torch.tensor([4, 1, 4])], seed=33)
    module_case(v, "embedding_freq", lambda: nn.Embedding(5, 2, scale_grad_by_freq=True), lambda: [torch.tensor([1, 1, 3, 1])], seed=34)
    m, _ = module_case(v, "embedding_maxnorm", lambda: nn.Embedding(6, 4, max_norm=1.0), lambda: [torch.tensor([[0, 2], [2, 5]])], seed=35)
    v["embedding_maxnorm_after"] = flat(m.weight)
    m, _ = module_case(v, "embedding_maxnorm_l1", lambda: nn.Embedding(6, 4, max_norm=2, norm_type=1.0), lambda: [torch.tensor([1, 3])], seed=36)
    v["embedding_maxnorm_l1_after"] = flat(m.weight)
    torch.manual_seed(37)
    m = nn.Embedding(7, 3, sparse=True)
    out = m(torch.tensor([1, 5, 5]))
    (out * upstream(out)).sum().backward()
    v["embedding_sparse_repr"] = repr(m)
    v["embedding_sparse_grad"] = flat(m.weight.grad.to_dense())
    v["embedding_sparse_is_sparse"] = m.weight.grad.is_sparse
    pre = torch.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    e = nn.Embedding.from_pretrained(pre)
    v["from_pretrained_repr"] = repr(e)
    v["from_pretrained_requires_grad"] = e.weight.requires_grad
    v["from_pretrained_out"] = flat(e(torch.tensor([2, 0])))
    e2 = nn.Embedding.from_pretrained(pre, freeze=False, padding_idx=1)
    v["from_pretrained_unfrozen_repr"] = repr(e2)
    v["from_pretrained_unfrozen_requires_grad"] = e2.weight.requires_grad
    v["embedding_reprs"] = [repr(nn.Embedding(4, 2, max_norm=1.5, norm_type=1.0, scale_grad_by_freq=True, sparse=True)),
                            repr(nn.Embedding(4, 2, max_norm=2))]

    # --- EmbeddingBag --------------------------------------------------------------------
    bag_in = lambda: [torch.tensor([1, 2, 4, 5, 4, 3, 2, 9]), torch.tensor([0, 3, 5])]
    module_case(v, "bag_mean", lambda: nn.EmbeddingBag(10, 3), bag_in, seed=38)
    module_case(v, "bag_sum", lambda: nn.EmbeddingBag(10, 3, mode="sum"), bag_in, seed=39)
    module_case(v, "bag_max", lambda: nn.EmbeddingBag(10, 3, mode="max"), bag_in, seed=40)
    module_case(v, "bag_2d", lambda: nn.EmbeddingBag(10, 2, mode="sum"), lambda: [torch.tensor([[1, 2, 3], [4, 4, 0]])], seed=41)
    module_case(v, "bag_last_offset", lambda: nn.EmbeddingBag(10, 2, include_last_offset=True, padding_idx=2),
                lambda: [torch.tensor([1, 2, 4, 5, 4, 3, 2, 9]), torch.tensor([0, 3, 5, 8])], seed=42)
    torch.manual_seed(43)
    m = nn.EmbeddingBag(10, 3, mode="sum")
    psw = torch.randn(8, requires_grad=True)
    out = m(torch.tensor([1, 2, 4, 5, 4, 3, 2, 9]), torch.tensor([0, 3, 5]), per_sample_weights=psw)
    (out * upstream(out)).sum().backward()
    v["bag_psw_out"] = flat(out)
    v["bag_psw_weight_grad"] = flat(m.weight.grad)
    v["bag_psw_grad"] = flat(psw.grad)
    v["bag_reprs"] = [repr(nn.EmbeddingBag(5, 2, max_norm=1.0, mode="max", padding_idx=-1)), repr(nn.EmbeddingBag(5, 2, norm_type=3, scale_grad_by_freq=True))]

    # --- functional ------------------------------------------------------------------------
    torch.manual_seed(44)
    x = torch.randn(3, 4, requires_grad=True)
    y = F.normalize(x)
    (y * upstream(y)).sum().backward()
    v["normalize"] = flat(y)
    v["normalize_grad"] = flat(x.grad)
    v["normalize_l1_dim0"] = flat(F.normalize(x, p=1.0, dim=0))
    v["one_hot"] = [int(t) for t in F.one_hot(torch.tensor([0, 3, 1])).reshape(-1)]
    v["one_hot_shape"] = list(F.one_hot(torch.tensor([[0, 1], [2, 1]]), num_classes=4).shape)
    torch.manual_seed(45)
    x = torch.randn(4, 3, 2)
    rm = torch.zeros(3)
    rv = torch.ones(3)
    w = torch.randn(3)
    b = torch.randn(3)
    v["f_batch_norm"] = flat(F.batch_norm(x, rm, rv, w, b, training=True, momentum=0.2))
    v["f_batch_norm_rm"] = flat(rm)
    v["f_batch_norm_rv"] = flat(rv)
    v["f_batch_norm_eval"] = flat(F.batch_norm(x, rm, rv, w, b))
    v["f_layer_norm"] = flat(F.layer_norm(x, [2], torch.tensor([0.5, 2.0]), torch.tensor([1.0, -1.0]), 1e-3))
    v["f_group_norm"] = flat(F.group_norm(x, 3, w, b))
    v["f_instance_norm"] = flat(F.instance_norm(x, weight=w, bias=b))
    v["f_rms_norm"] = flat(F.rms_norm(x, [3, 2], eps=1e-4))
    v["f_embedding"] = flat(F.embedding(torch.tensor([1, 0]), x.reshape(4, 6)))
    v["f_embedding_bag"] = flat(F.embedding_bag(torch.tensor([1, 0, 3]), x.reshape(4, 6), torch.tensor([0, 1]), mode="max"))
    torch.manual_seed(46)
    x = torch.randn(3, 4)
    v["f_dropout"] = flat(F.dropout(x, 0.25))
    v["f_dropout_eval"] = flat(F.dropout(x, 0.25, training=False))
    v["f_alpha_dropout"] = flat(F.alpha_dropout(x, 0.3, training=True))
    v["f_feature_alpha_dropout"] = flat(F.feature_alpha_dropout(x.reshape(3, 4, 1), 0.5, training=True))
    with warnings.catch_warnings():  # PyTorch warns that 3-D input is taken as (N, C, L)
        warnings.simplefilter("ignore")
        v["f_dropout2d_3d"] = flat(F.dropout2d(x.reshape(1, 3, 4), 0.5))

    # --- errors: PyTorch's texts ------------------------------------------------------------
    v["err_bn1d_rank"] = error_text(lambda: nn.BatchNorm1d(3)(torch.randn(2, 3, 4, 4)))
    v["err_bn2d_rank"] = error_text(lambda: nn.BatchNorm2d(3)(torch.randn(2, 3, 4)))
    v["err_bn3d_rank"] = error_text(lambda: nn.BatchNorm3d(3)(torch.randn(2, 3, 4, 4)))
    v["err_bn_batch1"] = error_text(lambda: nn.BatchNorm1d(3)(torch.randn(1, 3)))
    v["err_bn_eps"] = error_text(lambda: F.batch_norm(torch.randn(2, 3), None, None, training=True, eps=0.0))
    v["err_in_rank"] = error_text(lambda: nn.InstanceNorm2d(3)(torch.randn(2, 3)))
    v["err_in_features"] = error_text(lambda: nn.InstanceNorm1d(4, affine=True)(torch.randn(2, 3, 5)))
    v["err_in_spatial"] = error_text(lambda: nn.InstanceNorm1d(3)(torch.randn(2, 3, 1)))
    v["err_gn_divisible"] = error_text(lambda: nn.GroupNorm(3, 4))
    v["err_gn_rank"] = error_text(lambda: F.group_norm(torch.randn(4), 2))
    v["err_gn_batch1"] = error_text(lambda: nn.GroupNorm(2, 2)(torch.randn(1, 2)))
    v["err_ln_shape"] = error_text(lambda: nn.LayerNorm(4)(torch.randn(2, 3)))
    v["err_lrn_rank"] = error_text(lambda: nn.LocalResponseNorm(2)(torch.randn(2, 3)))
    v["err_dropout_p"] = error_text(lambda: nn.Dropout(1.5))
    v["err_f_dropout_p"] = error_text(lambda: F.dropout(torch.randn(2), -0.1))
    v["err_dropout1d_rank"] = error_text(lambda: nn.Dropout1d()(torch.randn(2, 3, 4, 5)))
    v["err_emb_pad"] = error_text(lambda: nn.Embedding(5, 2, padding_idx=5))
    v["err_emb_negpad"] = error_text(lambda: nn.Embedding(5, 2, padding_idx=-6))
    v["err_bag_pad"] = error_text(lambda: nn.EmbeddingBag(5, 2, padding_idx=7))
    v["err_pretrained_rank"] = error_text(lambda: nn.Embedding.from_pretrained(torch.zeros(2, 2, 2)))
    v["err_emb_weight_shape"] = error_text(lambda: nn.Embedding(3, 2, _weight=torch.zeros(2, 2)))
    v["err_bag_mode"] = error_text(lambda: F.embedding_bag(torch.tensor([1]), torch.randn(3, 2), torch.tensor([0]), mode="median"))
    v["err_bag_offsets_2d"] = error_text(lambda: F.embedding_bag(torch.tensor([[1]]), torch.randn(3, 2), torch.tensor([0])))
    v["err_bag_no_offsets"] = error_text(lambda: F.embedding_bag(torch.tensor([1]), torch.randn(3, 2)))
    v["err_bag_psw_mode"] = error_text(lambda: F.embedding_bag(torch.tensor([1]), torch.randn(3, 2), torch.tensor([0]), per_sample_weights=torch.ones(1)))
    v["err_bag_psw_shape"] = error_text(lambda: F.embedding_bag(torch.tensor([1, 2]), torch.randn(3, 2), torch.tensor([0]), mode="sum", per_sample_weights=torch.ones(3)))
    v["err_bag_max_freq"] = error_text(lambda: F.embedding_bag(torch.tensor([1]), torch.randn(3, 2), torch.tensor([0]), mode="max", scale_grad_by_freq=True))

    write(os.path.join(HERE, "layers_fixtures.spl"), __file__, v, index=True)


if __name__ == "__main__":
    main()
