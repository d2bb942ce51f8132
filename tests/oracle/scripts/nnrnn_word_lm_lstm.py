# covers: pytorch/examples word_language_model RNNModel (Embedding -> Dropout -> LSTM/GRU -> Dropout
# -> Linear), init_weights, init_hidden, repackage_hidden, truncated BPTT training with
# clip_grad_norm_ and a manual SGD update, then an optim.SGD variant and evaluation under no_grad
import math
import torch
import torch.nn as nn
import torch.nn.functional as F


class RNNModel(nn.Module):
    def __init__(self, rnn_type, ntoken, ninp, nhid, nlayers, dropout=0.5, tie_weights=False):
        super(RNNModel, self).__init__()
        self.ntoken = ntoken
        self.drop = nn.Dropout(dropout)
        self.encoder = nn.Embedding(ntoken, ninp)
        if rnn_type in ['LSTM', 'GRU']:
            self.rnn = getattr(nn, rnn_type)(ninp, nhid, nlayers, dropout=dropout)
        else:
            nonlinearity = {'RNN_TANH': 'tanh', 'RNN_RELU': 'relu'}[rnn_type]
            self.rnn = nn.RNN(ninp, nhid, nlayers, nonlinearity=nonlinearity, dropout=dropout)
        self.decoder = nn.Linear(nhid, ntoken)
        if tie_weights:
            self.decoder.weight = self.encoder.weight
        self.init_weights()
        self.rnn_type = rnn_type
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
        decoded = self.decoder(output)
        decoded = decoded.view(-1, self.ntoken)
        return F.log_softmax(decoded, dim=1), hidden

    def init_hidden(self, bsz):
        weight = next(self.parameters())
        if self.rnn_type == 'LSTM':
            return (weight.new_zeros(self.nlayers, bsz, self.nhid),
                    weight.new_zeros(self.nlayers, bsz, self.nhid))
        else:
            return weight.new_zeros(self.nlayers, bsz, self.nhid)


def repackage_hidden(h):
    if isinstance(h, torch.Tensor):
        return h.detach()
    else:
        return tuple(repackage_hidden(v) for v in h)


def batchify(data, bsz):
    nbatch = data.size(0) // bsz
    data = data.narrow(0, 0, nbatch * bsz)
    return data.view(bsz, -1).t().contiguous()


def get_batch(source, i, bptt):
    seq_len = min(bptt, len(source) - 1 - i)
    data = source[i:i + seq_len]
    target = source[i + 1:i + 1 + seq_len].view(-1)
    return data, target


ntokens = 20
torch.manual_seed(1111)
corpus = torch.randint(0, ntokens, (200,))
train_data = batchify(corpus, 4)
print(train_data.shape)

for rnn_type in ['LSTM', 'GRU']:
    torch.manual_seed(1111)
    model = RNNModel(rnn_type, ntokens, 8, 12, 2, dropout=0.2, tie_weights=False)
    print(model)
    criterion = F.nll_loss  # nn.NLLLoss in the example
    lr = 5.0
    bptt = 7
    model.train()
    hidden = model.init_hidden(4)
    losses = []
    for batch, i in enumerate(range(0, train_data.size(0) - 1, bptt)):
        data, targets = get_batch(train_data, i, bptt)
        hidden = repackage_hidden(hidden)
        model.zero_grad()
        output, hidden = model(data, hidden)
        loss = criterion(output, targets)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 0.25)
        for p in model.parameters():
            p.data.add_(p.grad, alpha=-lr)
        losses.append(round(loss.item(), 4))
    print(rnn_type, losses)
    print(model.rnn.weight_hh_l1[:2, :4])

    model.eval()
    total_loss = 0.
    hidden = model.init_hidden(4)
    with torch.no_grad():
        for i in range(0, train_data.size(0) - 1, bptt):
            data, targets = get_batch(train_data, i, bptt)
            output, hidden = model(data, hidden)
            hidden = repackage_hidden(hidden)
            total_loss += len(data) * criterion(output, targets).item()
    val = total_loss / (len(train_data) - 1)
    print('eval loss {:5.4f} ppl {:8.4f}'.format(val, math.exp(val)))

torch.manual_seed(7)
model = RNNModel('RNN_TANH', ntokens, 6, 6, 1, dropout=0.0, tie_weights=True)
print(model)
opt = torch.optim.SGD(model.parameters(), lr=0.5, momentum=0.9)
hidden = model.init_hidden(4)
for step in range(3):
    data, targets = get_batch(train_data, step * 5, 5)
    hidden = repackage_hidden(hidden)
    opt.zero_grad()
    output, hidden = model(data, hidden)
    loss = F.nll_loss(output, targets)
    loss.backward()
    opt.step()
    print(step, loss.item())
print(model.encoder.weight is model.decoder.weight, model.rnn.bias_ih_l0)
