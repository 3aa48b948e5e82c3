"""A word-level language model as PyTorch's word_language_model example writes it, on a small
text held in this file (nothing is downloaded): tokenize into a vocabulary, batchify, an
Embedding + LSTM + Linear model, truncated backpropagation through time with the hidden state
detached between chunks, gradient clipping, plain SGD on the parameters, the learning rate
annealed when validation stops improving, and perplexity per epoch.

examples/port/word_lm.spl is this program ported to Simple line by line;
tests/examples/check_ports.py runs both and compares what they print.
Run: .venv/bin/python examples/port/word_lm.py"""
import math
import torch
import torch.nn as nn
import torch.nn.functional as F

TEXT = """
The river starts high in the hills where the snow lies late into spring. In the morning the
water is cold and clear, and the stones on the bottom shine like coins. Small fish hold still
in the current and wait for insects to fall from the trees.
By noon the river is wider and slower. It passes the old mill, where the wheel no longer turns,
and the village, where children throw stones from the bridge. The water is warm at the edges
and the fish rest in the shade of the reeds.
In the evening the river reaches the plain. It moves slowly between the fields, and the light
of the sun lies on the water like a road of gold. Birds come down to drink, and the cows stand
in the shallow water until the farmer calls them home.
At night the river is dark and quiet. The stars shine on the water, and the sound of the current
is the only sound in the valley. The fish sleep in the deep pools, and the river carries the
snow of the hills slowly down to the sea.

In the morning the fish wait in the cold water of the hills, and by noon the children stand on
the bridge. In the evening the light of the sun lies on the fields, and at night the river
carries the stars down to the sea.
"""

EMSIZE = 32
NHID = 32
NLAYERS = 2
DROPOUT = 0.2
BPTT = 8
BATCH_SIZE = 4
EVAL_BATCH_SIZE = 2
CLIP = 0.25
LR = 20.0
EPOCHS = 5


class Dictionary:
    def __init__(self):
        self.word2idx = {}
        self.idx2word = []

    def add_word(self, word):
        if word not in self.word2idx:
            self.idx2word.append(word)
            self.word2idx[word] = len(self.idx2word) - 1
        return self.word2idx[word]

    def __len__(self):
        return len(self.idx2word)


def tokenize(text, dictionary):
    ids = []
    for line in text.splitlines():
        for word in line.lower().split() + ["<eos>"]:
            ids.append(dictionary.add_word(word))
    return torch.tensor(ids, dtype=torch.long)


def batchify(data, bsz):
    nbatch = data.size(0) // bsz
    data = data.narrow(0, 0, nbatch * bsz)
    return data.view(bsz, -1).t().contiguous()


def get_batch(source, i):
    seq_len = min(BPTT, len(source) - 1 - i)
    data = source[i:i + seq_len]
    target = source[i + 1:i + 1 + seq_len].view(-1)
    return data, target


class RNNModel(nn.Module):
    def __init__(self, ntoken, ninp, nhid, nlayers, dropout=0.5):
        super().__init__()
        self.ntoken = ntoken
        self.drop = nn.Dropout(dropout)
        self.encoder = nn.Embedding(ntoken, ninp)
        self.rnn = nn.LSTM(ninp, nhid, nlayers, dropout=dropout)
        self.decoder = nn.Linear(nhid, ntoken)
        self.init_weights()
        self.nhid = nhid
        self.nlayers = nlayers

    def init_weights(self):
        initrange = 0.1
        nn.init.uniform_(self.encoder.weight, -initrange, initrange)
        nn.init.zeros_(self.decoder.bias)
        nn.init.uniform_(self.decoder.weight, -initrange, initrange)

    def forward(self, input, hidden):
        emb = self.drop(self.encoder(input))
        output, hidden = self.rnn(emb, hidden)
        output = self.drop(output)
        decoded = self.decoder(output).view(-1, self.ntoken)
        return F.log_softmax(decoded, dim=1), hidden

    def init_hidden(self, bsz):
        weight = next(self.parameters())
        return (weight.new_zeros(self.nlayers, bsz, self.nhid),
                weight.new_zeros(self.nlayers, bsz, self.nhid))


def repackage_hidden(h):
    """Wraps hidden states in new Tensors, to detach them from their history."""
    if isinstance(h, torch.Tensor):
        return h.detach()
    else:
        return tuple(repackage_hidden(v) for v in h)


def train(model, train_data, criterion, lr):
    model.train()
    total_loss = 0.0
    hidden = model.init_hidden(BATCH_SIZE)
    for batch, i in enumerate(range(0, train_data.size(0) - 1, BPTT)):
        data, targets = get_batch(train_data, i)
        hidden = repackage_hidden(hidden)
        model.zero_grad()
        output, hidden = model(data, hidden)
        loss = criterion(output, targets)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), CLIP)
        for p in model.parameters():
            p.data.add_(p.grad, alpha=-lr)
        total_loss += loss.item()
    return total_loss / (batch + 1)


def evaluate(model, data_source, criterion):
    model.eval()
    total_loss = 0.0
    hidden = model.init_hidden(EVAL_BATCH_SIZE)
    with torch.no_grad():
        for i in range(0, data_source.size(0) - 1, BPTT):
            data, targets = get_batch(data_source, i)
            output, hidden = model(data, hidden)
            hidden = repackage_hidden(hidden)
            total_loss += len(data) * criterion(output, targets).item()
    return total_loss / (len(data_source) - 1)


def main():
    torch.manual_seed(1111)
    train_text, valid_text = TEXT.strip().split("\n\n")
    dictionary = Dictionary()
    train_data = batchify(tokenize(train_text, dictionary), BATCH_SIZE)
    val_data = batchify(tokenize(valid_text, dictionary), EVAL_BATCH_SIZE)
    ntokens = len(dictionary)
    print(f"vocabulary {ntokens} words, train data {tuple(train_data.shape)}, validation data {tuple(val_data.shape)}")

    model = RNNModel(ntokens, EMSIZE, NHID, NLAYERS, DROPOUT)
    print(model)
    criterion = nn.NLLLoss()
    lr = LR
    best_val_loss = None
    for epoch in range(1, EPOCHS + 1):
        train_loss = train(model, train_data, criterion, lr)
        val_loss = evaluate(model, val_data, criterion)
        print(f"epoch {epoch}: lr {lr} train loss {train_loss} train ppl {math.exp(train_loss)} "
              f"valid loss {val_loss} valid ppl {math.exp(val_loss)}")
        if not best_val_loss or val_loss < best_val_loss:
            best_val_loss = val_loss
        else:
            lr /= 4.0


if __name__ == "__main__":
    main()
