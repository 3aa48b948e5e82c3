#!/usr/bin/env python3
"""Writes tests/nn/transformer_fixtures.spl: scaled_dot_product_attention,
MultiheadAttention and the Transformer family, run by Python PyTorch on the pinned wheel.

    .venv/bin/python tests/nn/make_transformer_fixtures.py

Each module case follows fixtures.module_case (seed, construct, draw inputs, forward,
backward with the cos upstream gradient), but calls the module with named arguments (masks),
so the call is a lambda here and written out in transformer_spec.spl. Gradient cases run in
train mode with dropout=0.0, or in eval mode with gradients enabled: both take PyTorch's
slow (non-fused) path. The fused paths (eval under no_grad) have forward-only cases.
"""
import os
import sys

import torch
import torch.nn as nn
import torch.nn.functional as F

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from fixtures import constructed, error_text, flat, record_first_output, upstream, write  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))

# Masks are written out as literals in both files (no random draws).
KPM = [[False, False, False, True, True], [False, False, False, False, False], [False, False, True, True, True]]
ATTN_BOOL = [[False, True, False, False, True], [False, False, True, False, False], [True, False, False, False, False],
             [False, False, False, True, False]]


def case(v, name, make, inputs, run, seed, train=True, backward=True, no_grad=False):
    """make(): the module; inputs(): drawn after it; run(m, args): the call (tensor or tuple)."""
    m = constructed(v, name, make, seed, train)
    args = inputs()
    if no_grad:
        with torch.no_grad():
            out = run(m, args)
    else:
        out = run(m, args)
    first = out[0] if isinstance(out, tuple) else out
    v[name + "_out"] = flat(first)
    v[name + "_out_shape"] = list(first.shape)
    if isinstance(out, tuple):
        v[name + "_weights"] = flat(out[1]) if out[1] is not None else []
        v[name + "_weights_shape"] = list(out[1].shape) if out[1] is not None else []
    record_first_output(v, name, out, args, m, backward)


class EncoderModel(nn.Module):
    """A Linear input projection, a 2-layer TransformerEncoder and a Linear head."""

    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(4, 8)
        layer = nn.TransformerEncoderLayer(8, 2, dim_feedforward=16, dropout=0.0, batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, 2, norm=nn.LayerNorm(8), enable_nested_tensor=False)
        self.head = nn.Linear(8, 3)

    def forward(self, x, mask):
        return self.head(self.encoder(self.proj(x), mask=mask))


def main():
    v = {}

    # --- F.scaled_dot_product_attention: values and input gradients
    torch.manual_seed(40)
    q = torch.randn(2, 2, 4, 6, requires_grad=True)
    k = torch.randn(2, 2, 5, 6, requires_grad=True)
    val = torch.randn(2, 2, 5, 3, requires_grad=True)
    mask = torch.tensor(ATTN_BOOL).logical_not()
    out = F.scaled_dot_product_attention(q, k, val, attn_mask=mask, scale=0.3)
    v["sdpa_out"] = flat(out)
    v["sdpa_out_shape"] = list(out.shape)
    (out * upstream(out)).sum().backward()
    v["sdpa_grads"] = [flat(q.grad), flat(k.grad), flat(val.grad)]
    torch.manual_seed(41)
    q = torch.randn(3, 5, 4)
    v["sdpa_causal"] = flat(F.scaled_dot_product_attention(q, q, q, is_causal=True))
    torch.manual_seed(42)
    q = torch.randn(1, 4, 3, 2)
    k = torch.randn(1, 2, 3, 2)
    vv = torch.randn(1, 2, 3, 2)
    v["sdpa_gqa"] = flat(F.scaled_dot_product_attention(q, k, vv, enable_gqa=True))
    m = nn.Transformer.generate_square_subsequent_mask(4)
    v["causal_mask_isinf"] = [bool(x) for x in torch.isinf(m).reshape(-1).tolist()]
    v["causal_mask_dtype"] = str(m.dtype).replace("torch.", "")

    # --- MultiheadAttention
    case(v, "mha", lambda: nn.MultiheadAttention(8, 2),
         lambda: [torch.randn(4, 3, 8, requires_grad=True), torch.randn(5, 3, 8, requires_grad=True), torch.randn(5, 3, 8)],
         lambda m, a: m(a[0], a[1], a[2]), seed=50)
    case(v, "mha_masks", lambda: nn.MultiheadAttention(8, 2, batch_first=True),
         lambda: [torch.randn(3, 5, 8, requires_grad=True)],
         lambda m, a: m(a[0], a[0], a[0], key_padding_mask=torch.tensor(KPM), attn_mask=torch.tensor(ATTN_BOOL + [[False] * 5]),
                        average_attn_weights=False),
         seed=51)
    case(v, "mha_sdpa", lambda: nn.MultiheadAttention(8, 4, batch_first=True),
         lambda: [torch.randn(3, 4, 8), torch.randn(3, 5, 8)],
         lambda m, a: m(a[0], a[1], a[1], key_padding_mask=torch.tensor(KPM).float() * -2.0,
                        attn_mask=torch.tensor(ATTN_BOOL).float() * -1.5, need_weights=False),
         seed=52)
    case(v, "mha_kv", lambda: nn.MultiheadAttention(8, 2, kdim=6, vdim=4, add_bias_kv=True, add_zero_attn=True),
         lambda: [torch.randn(4, 2, 8), torch.randn(5, 2, 6), torch.randn(5, 2, 4)],
         lambda m, a: m(a[0], a[1], a[2], key_padding_mask=torch.tensor(KPM[:2])), seed=53)
    case(v, "mha_nobias", lambda: nn.MultiheadAttention(8, 2, bias=False),
         lambda: [torch.randn(5, 8, requires_grad=True)],
         lambda m, a: m(a[0], a[0], a[0], attn_mask=nn.Transformer.generate_square_subsequent_mask(5), is_causal=True, need_weights=False),
         seed=54)
    case(v, "mha_eval", lambda: nn.MultiheadAttention(8, 2, batch_first=True),
         lambda: [torch.randn(3, 5, 8)],
         lambda m, a: m(a[0], a[0], a[0], key_padding_mask=torch.tensor(KPM)), seed=55, train=False)
    case(v, "mha_fast", lambda: nn.MultiheadAttention(8, 2, batch_first=True),
         lambda: [torch.randn(3, 5, 8)],
         lambda m, a: m(a[0], a[0], a[0], key_padding_mask=torch.tensor(KPM), need_weights=False),
         seed=55, train=False, backward=False, no_grad=True)

    # --- encoder layers
    causal5 = nn.Transformer.generate_square_subsequent_mask(5)
    case(v, "enc_layer", lambda: nn.TransformerEncoderLayer(8, 2, dim_feedforward=16, dropout=0.0),
         lambda: [torch.randn(5, 3, 8, requires_grad=True)],
         lambda m, a: m(a[0], src_mask=causal5, src_key_padding_mask=torch.tensor(KPM)), seed=60)
    case(v, "enc_layer_gelu", lambda: nn.TransformerEncoderLayer(8, 2, dim_feedforward=16, dropout=0.1, activation="gelu", norm_first=True, batch_first=True),
         lambda: [torch.randn(3, 5, 8)],
         lambda m, a: m(a[0], src_key_padding_mask=torch.tensor(KPM)), seed=61, train=False)
    case(v, "enc_layer_fast", lambda: nn.TransformerEncoderLayer(8, 2, dim_feedforward=16, batch_first=True),
         lambda: [torch.randn(3, 5, 8)],
         lambda m, a: m(a[0], src_key_padding_mask=torch.tensor(KPM)), seed=62, train=False, backward=False, no_grad=True)
    case(v, "enc_model", EncoderModel, lambda: [torch.randn(2, 5, 4)],
         lambda m, a: m(a[0], causal5), seed=63)
    case(v, "encoder_nested", lambda: nn.TransformerEncoder(nn.TransformerEncoderLayer(8, 2, dim_feedforward=16, batch_first=True), 2),
         lambda: [torch.randn(3, 5, 8)],
         lambda m, a: m(a[0], src_key_padding_mask=torch.tensor(KPM)), seed=64, train=False, backward=False, no_grad=True)

    # --- decoder and the full model
    causal4 = nn.Transformer.generate_square_subsequent_mask(4)
    case(v, "decoder", lambda: nn.TransformerDecoder(nn.TransformerDecoderLayer(8, 2, dim_feedforward=16, dropout=0.0), 2, norm=nn.LayerNorm(8)),
         lambda: [torch.randn(4, 3, 8, requires_grad=True), torch.randn(5, 3, 8, requires_grad=True)],
         lambda m, a: m(a[0], a[1], tgt_mask=causal4, memory_key_padding_mask=torch.tensor(KPM)), seed=70)
    case(v, "dec_layer_nf", lambda: nn.TransformerDecoderLayer(8, 2, dim_feedforward=16, dropout=0.0, norm_first=True, batch_first=True, activation="gelu"),
         lambda: [torch.randn(3, 4, 8), torch.randn(3, 5, 8)],
         lambda m, a: m(a[0], a[1], tgt_mask=causal4, tgt_is_causal=True, memory_mask=torch.tensor(ATTN_BOOL)), seed=71)
    case(v, "transformer", lambda: nn.Transformer(d_model=8, nhead=2, num_encoder_layers=2, num_decoder_layers=1, dim_feedforward=16, dropout=0.0),
         lambda: [torch.randn(5, 3, 8), torch.randn(4, 3, 8)],
         lambda m, a: m(a[0], a[1], tgt_mask=causal4, src_key_padding_mask=torch.tensor(KPM), memory_key_padding_mask=torch.tensor(KPM)),
         seed=72)
    case(v, "transformer_bf", lambda: nn.Transformer(d_model=8, nhead=2, num_encoder_layers=1, num_decoder_layers=1, dim_feedforward=16, dropout=0.0,
                                                      batch_first=True, norm_first=True, bias=False),
         lambda: [torch.randn(3, 5, 8), torch.randn(3, 4, 8)],
         lambda m, a: m(a[0], a[1], tgt_mask=causal4, tgt_is_causal=True), seed=73)

    # --- errors (PyTorch's own text)
    v["err_divisible"] = error_text(lambda: nn.MultiheadAttention(10, 3))
    v["err_heads"] = error_text(lambda: nn.MultiheadAttention(8, 0))
    mha = nn.MultiheadAttention(8, 2)
    v["err_embed"] = error_text(lambda: mha(torch.randn(4, 2, 6), torch.randn(4, 2, 6), torch.randn(4, 2, 6)))
    v["err_rank"] = error_text(lambda: mha(torch.randn(1, 4, 2, 8), torch.randn(4, 2, 8), torch.randn(4, 2, 8)))
    v["err_kv_rank"] = error_text(lambda: mha(torch.randn(4, 2, 8), torch.randn(4, 8), torch.randn(4, 8)))
    v["err_mask_shape"] = error_text(lambda: mha(torch.randn(4, 2, 8), torch.randn(5, 2, 8), torch.randn(5, 2, 8), attn_mask=torch.zeros(4, 4)))
    v["err_mask_dtype"] = error_text(lambda: mha(torch.randn(4, 2, 8), torch.randn(5, 2, 8), torch.randn(5, 2, 8), attn_mask=torch.zeros(4, 5, dtype=torch.int64)))
    v["err_kv_shape"] = error_text(lambda: mha(torch.randn(4, 2, 8), torch.randn(5, 2, 8), torch.randn(6, 2, 8)))
    v["err_kpm"] = error_text(lambda: mha(torch.randn(4, 2, 8), torch.randn(5, 2, 8), torch.randn(5, 2, 8), key_padding_mask=torch.zeros(2, 4, dtype=torch.bool)))
    v["err_causal"] = error_text(lambda: mha(torch.randn(4, 2, 8), torch.randn(4, 2, 8), torch.randn(4, 2, 8), is_causal=True))
    v["err_activation"] = error_text(lambda: nn.TransformerEncoderLayer(8, 2, activation="tanh"))
    t = nn.Transformer(d_model=8, nhead=2, num_encoder_layers=1, num_decoder_layers=1, dim_feedforward=16)
    v["err_batch"] = error_text(lambda: t(torch.randn(5, 3, 8), torch.randn(4, 2, 8)))
    v["err_feature"] = error_text(lambda: t(torch.randn(5, 3, 8), torch.randn(4, 3, 6)))

    write(os.path.join(HERE, "transformer_fixtures.spl"), __file__, v, index=True)


if __name__ == "__main__":
    main()
