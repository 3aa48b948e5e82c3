#!/usr/bin/env python3
"""Writes tests/nn/rnn_fixtures.spl: torch.nn's RNN, LSTM, GRU, their cells and
torch.nn.utils.rnn (pad/pack), run by Python PyTorch on the pinned wheel.

    .venv/bin/python tests/nn/make_rnn_fixtures.py

A recurrent case records, under `<name>_...`, what fixtures.module_case records, but
for every output: `outs` holds each output tensor flattened (output, h_n[, c_n]; a
PackedSequence's `data`), `out_shapes` their shapes, and the gradients come from
`sum((o * upstream(o)).sum() for o in outputs)`, so the h_n / c_n paths are checked too.
`input_grads` are those of the inputs that require grad (the hidden state's included), in
argument order.
"""
import os
import sys

import torch
import torch.nn as nn
from torch.nn.utils.rnn import PackedSequence, pack_padded_sequence, pack_sequence, pad_packed_sequence, pad_sequence

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from fixtures import constructed, error_text, flat, upstream, write  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))


def outputs_of(out):
    """Output tensors in order: (output, h_n) / (output, (h_n, c_n)) / a cell's h or (h, c)."""
    if isinstance(out, PackedSequence):
        return [out.data]
    if isinstance(out, torch.Tensor):
        return [out]
    return [t for o in out for t in outputs_of(o)]


def leaves(args):
    """The argument tensors that require grad, in order (inside tuples and lists too)."""
    out = []
    for a in args:
        if isinstance(a, torch.Tensor):
            if a.requires_grad:
                out.append(a)
        elif isinstance(a, (tuple, list)):
            out.extend(leaves(a))
    return out


def rnn_case(values, name, make, inputs, seed, train=True, pack=None):
    """make(): the module; inputs(): its arguments, drawn after it. pack(args) -> args turns
    the drawn tensors into the forward's arguments (a PackedSequence), so that their grads
    can be checked through the packing."""
    m = constructed(values, name, make, seed, train)
    drawn = inputs()
    args = pack(drawn) if pack else drawn
    out = m(*args)
    outs = outputs_of(out)
    values[name + "_outs"] = [flat(o) for o in outs]
    values[name + "_out_shapes"] = [list(o.shape) for o in outs]
    sum((o * upstream(o)).sum() for o in outs).backward()
    values[name + "_grads"] = [flat(p.grad) for _, p in m.named_parameters()]
    values[name + "_input_grads"] = [flat(t.grad) for t in leaves(drawn)]
    return m, out


def randn(*shape, grad=False, dtype=torch.float32):
    return torch.randn(*shape, dtype=dtype, requires_grad=grad)


def main():
    v = {}

    # --- RNN ---------------------------------------------------------------------------
    rnn_case(v, "rnn_tanh", lambda: nn.RNN(4, 5, num_layers=2), lambda: [randn(6, 3, 4, grad=True)], seed=1)
    rnn_case(v, "rnn_relu_bi", lambda: nn.RNN(4, 5, nonlinearity="relu", bidirectional=True, batch_first=True),
             lambda: [randn(3, 6, 4, grad=True), randn(2, 3, 5, grad=True)], seed=2)
    rnn_case(v, "rnn_unbatched", lambda: nn.RNN(3, 4), lambda: [randn(5, 3, grad=True), randn(1, 4, grad=True)], seed=3)
    rnn_case(v, "rnn_dropout", lambda: nn.RNN(4, 5, num_layers=3, dropout=0.4), lambda: [randn(6, 3, 4)], seed=4)

    # --- LSTM ---------------------------------------------------------------------------
    rnn_case(v, "lstm_bi", lambda: nn.LSTM(4, 5, num_layers=2, bidirectional=True),
             lambda: [randn(6, 3, 4, grad=True), (randn(4, 3, 5, grad=True), randn(4, 3, 5, grad=True))], seed=5)
    rnn_case(v, "lstm_proj", lambda: nn.LSTM(4, 6, num_layers=2, batch_first=True, proj_size=3),
             lambda: [randn(2, 5, 4, grad=True)], seed=6)
    rnn_case(v, "lstm_dropout_train", lambda: nn.LSTM(4, 5, num_layers=3, dropout=0.5), lambda: [randn(6, 3, 4)], seed=7)
    rnn_case(v, "lstm_dropout_eval", lambda: nn.LSTM(4, 5, num_layers=3, dropout=0.5), lambda: [randn(6, 3, 4)], seed=7, train=False)
    rnn_case(v, "lstm_nobias_f64", lambda: nn.LSTM(3, 4, bias=False, dtype=torch.float64),
             lambda: [randn(5, 2, 3, dtype=torch.float64)], seed=8)
    rnn_case(v, "lstm_unbatched", lambda: nn.LSTM(3, 4, batch_first=True),
             lambda: [randn(5, 3, grad=True), (randn(1, 4), randn(1, 4))], seed=9)

    # --- GRU ----------------------------------------------------------------------------
    rnn_case(v, "gru_bi", lambda: nn.GRU(4, 5, num_layers=2, bidirectional=True, batch_first=True),
             lambda: [randn(3, 6, 4, grad=True), randn(4, 3, 5, grad=True)], seed=10)
    rnn_case(v, "gru_dropout", lambda: nn.GRU(4, 5, num_layers=2, bias=False, dropout=0.3), lambda: [randn(6, 3, 4)], seed=11)

    # --- packed sequences of unequal lengths ---------------------------------------------
    m, out = rnn_case(v, "lstm_packed", lambda: nn.LSTM(4, 5, num_layers=2, bidirectional=True),
                      lambda: [randn(6, 4, 4, grad=True), (randn(4, 4, 5, grad=True), randn(4, 4, 5, grad=True))], seed=12,
                      pack=lambda a: [pack_padded_sequence(a[0], [3, 6, 2, 5], enforce_sorted=False), a[1]])
    v["lstm_packed_batch_sizes"] = out[0].batch_sizes.tolist()
    v["lstm_packed_sorted"] = out[0].sorted_indices.tolist()
    padded, lengths = pad_packed_sequence(out[0], total_length=7)
    v["lstm_packed_padded"] = flat(padded)
    v["lstm_packed_padded_shape"] = list(padded.shape)
    v["lstm_packed_lengths"] = lengths.tolist()
    rnn_case(v, "gru_packed", lambda: nn.GRU(4, 5, batch_first=True), lambda: [randn(4, 6, 4, grad=True)], seed=13,
             pack=lambda a: [pack_padded_sequence(a[0], torch.tensor([6, 5, 3, 1]), batch_first=True)])
    rnn_case(v, "rnn_packed", lambda: nn.RNN(4, 5, num_layers=2, dropout=0.5),
             lambda: [[randn(3, 4, grad=True), randn(5, 4, grad=True), randn(2, 4, grad=True)], randn(2, 3, 5, grad=True)], seed=14,
             pack=lambda a: [pack_sequence(a[0], enforce_sorted=False), a[1]])

    # --- cells ----------------------------------------------------------------------------
    rnn_case(v, "rnncell", lambda: nn.RNNCell(4, 5), lambda: [randn(3, 4, grad=True), randn(3, 5, grad=True)], seed=20)
    rnn_case(v, "rnncell_relu", lambda: nn.RNNCell(4, 5, bias=False, nonlinearity="relu"), lambda: [randn(4, grad=True)], seed=21)
    rnn_case(v, "lstmcell", lambda: nn.LSTMCell(4, 5), lambda: [randn(3, 4, grad=True), (randn(3, 5, grad=True), randn(3, 5, grad=True))], seed=22)
    rnn_case(v, "lstmcell_zero", lambda: nn.LSTMCell(4, 5, bias=False), lambda: [randn(3, 4)], seed=23)
    rnn_case(v, "grucell", lambda: nn.GRUCell(4, 5), lambda: [randn(3, 4, grad=True), randn(3, 5, grad=True)], seed=24)
    rnn_case(v, "grucell_unbatched", lambda: nn.GRUCell(4, 5), lambda: [randn(4, grad=True), randn(5)], seed=25)

    # --- an LSTM language model: Embedding + LSTM + Linear -----------------------------------
    class LanguageModel(nn.Module):
        def __init__(self):
            super().__init__()
            self.embedding = nn.Embedding(20, 8)
            self.lstm = nn.LSTM(8, 16, num_layers=2, batch_first=True, dropout=0.25)
            self.fc = nn.Linear(16, 20)

        def forward(self, tokens):
            out, _ = self.lstm(self.embedding(tokens))
            return self.fc(out)

    torch.manual_seed(30)
    lm = LanguageModel()
    v["lm_state_keys"] = list(lm.state_dict().keys())
    v["lm_params"] = [flat(p) for p in lm.parameters()]
    v["lm_repr"] = repr(lm)
    tokens = torch.randint(0, 20, (2, 7))
    logits = lm(tokens)
    v["lm_out"] = flat(logits)
    (logits * upstream(logits)).sum().backward()
    v["lm_grads"] = [flat(p.grad) for p in lm.parameters()]

    # --- reprs -----------------------------------------------------------------------------
    v["reprs"] = [repr(m) for m in [
        nn.LSTM(10, 20, num_layers=2, batch_first=True),
        nn.LSTM(10, 20, bias=False, dropout=0.1, bidirectional=True, proj_size=5),
        nn.GRU(3, 4, dropout=1),
        nn.RNN(3, 4, nonlinearity="relu"),
        nn.RNNCell(3, 4, bias=False, nonlinearity="relu"),
        nn.LSTMCell(3, 4),
        nn.GRUCell(3, 4, bias=False),
    ]]

    # --- torch.nn.utils.rnn ------------------------------------------------------------------
    torch.manual_seed(40)
    seqs = [torch.randn(4, 2), torch.randn(2, 2), torch.randn(3, 2)]
    v["pad_default"] = flat(pad_sequence(seqs))
    v["pad_default_shape"] = list(pad_sequence(seqs).shape)
    v["pad_bf_left"] = flat(pad_sequence(seqs, batch_first=True, padding_value=-1.0, padding_side="left"))
    packed = pack_sequence(seqs, enforce_sorted=False)
    v["pack_data"] = flat(packed.data)
    v["pack_batch_sizes"] = packed.batch_sizes.tolist()
    v["pack_sorted"] = packed.sorted_indices.tolist()
    v["pack_unsorted"] = packed.unsorted_indices.tolist()
    padded, lengths = pad_packed_sequence(packed, batch_first=True, padding_value=9.0)
    v["unpack_padded"] = flat(padded)
    v["unpack_lengths"] = lengths.tolist()
    sorted_pack = pack_padded_sequence(pad_sequence([seqs[0], seqs[2], seqs[1]]), [4, 3, 2])
    v["pack_sorted_data"] = flat(sorted_pack.data)
    v["pack_sorted_batch_sizes"] = sorted_pack.batch_sizes.tolist()

    # --- errors (PyTorch's texts) -----------------------------------------------------------
    v["err_input_size"] = error_text(lambda: nn.LSTM(10, 20)(torch.randn(5, 3, 7)))
    v["err_hidden"] = error_text(lambda: nn.RNN(10, 20)(torch.randn(5, 3, 10), torch.randn(1, 3, 19)))
    v["err_lstm_cell_state"] = error_text(lambda: nn.LSTM(10, 20, num_layers=2)(torch.randn(5, 3, 10), (torch.zeros(2, 3, 20), torch.zeros(2, 4, 20))))
    v["err_hx_dims"] = error_text(lambda: nn.GRU(4, 5)(torch.randn(5, 3, 4), torch.zeros(3, 5)))
    v["err_input_dims"] = error_text(lambda: nn.GRU(4, 5)(torch.randn(5, 3, 4, 1)))
    v["err_rnn_input_dims"] = error_text(lambda: nn.RNN(4, 5)(torch.randn(4)))
    v["err_dtype"] = error_text(lambda: nn.LSTM(4, 5)(torch.randn(5, 3, 4, dtype=torch.float64)))
    v["err_nonlinearity"] = error_text(lambda: nn.RNN(4, 5, nonlinearity="sigmoid"))
    v["err_dropout"] = error_text(lambda: nn.LSTM(4, 5, dropout=1.5))
    v["err_proj"] = error_text(lambda: nn.LSTM(4, 5, proj_size=5))
    v["err_unsorted"] = error_text(lambda: pack_padded_sequence(torch.zeros(5, 3, 2), [2, 5, 3]))
    v["err_total_length"] = error_text(lambda: pad_packed_sequence(pack_sequence([torch.zeros(4, 1)]), total_length=2))
    v["err_cell_input"] = error_text(lambda: nn.GRUCell(4, 5)(torch.randn(2, 3, 4)))

    write(os.path.join(HERE, "rnn_fixtures.spl"), __file__, v)


if __name__ == "__main__":
    main()
