# covers: pytorch/examples word_language_model TransformerModel (subclass of nn.Transformer whose
# decoder is replaced by a Linear; Embedding * sqrt(ninp), sinusoidal PositionalEncoding buffer,
# TransformerEncoder with a log(tril) square subsequent mask), training steps with clip_grad_norm_
# and manual SGD, then evaluation under no_grad, plus a batch_first encoder-only variant with Adam
import math
import torch
import torch.nn as nn
import torch.nn.functional as F


class PositionalEncoding(nn.Module):
    def __init__(self, d_model, dropout=0.1, max_len=5000):
        super(PositionalEncoding, self).__init__()
        self.dropout = nn.Dropout(p=dropout)
        pe = torch.zeros(max_len, d_model)
        position = torch.arange(0, max_len, dtype=torch.float).unsqueeze(1)
        div_term = torch.exp(torch.arange(0, d_model, 2).float() * (-math.log(10000.0) / d_model))
        pe[:, 0::2] = torch.sin(position * div_term)
        pe[:, 1::2] = torch.cos(position * div_term)
        pe = pe.unsqueeze(0).transpose(0, 1)
        self.register_buffer('pe', pe)

    def forward(self, x):
        x = x + self.pe[:x.size(0), :]
        return self.dropout(x)


class TransformerModel(nn.Transformer):
    def __init__(self, ntoken, ninp, nhead, nhid, nlayers, dropout=0.5):
        super(TransformerModel, self).__init__(d_model=ninp, nhead=nhead, dim_feedforward=nhid,
                                               num_encoder_layers=nlayers, num_decoder_layers=1)
        self.model_type = 'Transformer'
        self.src_mask = None
        self.pos_encoder = PositionalEncoding(ninp, dropout, max_len=64)
        self.input_emb = nn.Embedding(ntoken, ninp)
        self.ninp = ninp
        self.decoder = nn.Linear(ninp, ntoken)
        self.init_weights()

    def _generate_square_subsequent_mask(self, sz):
        return torch.log(torch.tril(torch.ones(sz, sz)))

    def init_weights(self):
        initrange = 0.1
        nn.init.uniform_(self.input_emb.weight, -initrange, initrange)
        nn.init.zeros_(self.decoder.bias)
        nn.init.uniform_(self.decoder.weight, -initrange, initrange)

    def forward(self, src, has_mask=True):
        if has_mask:
            device = src.device
            if self.src_mask is None or self.src_mask.size(0) != len(src):
                mask = self._generate_square_subsequent_mask(len(src)).to(device)
                self.src_mask = mask
        else:
            self.src_mask = None
        src = self.input_emb(src) * math.sqrt(self.ninp)
        src = self.pos_encoder(src)
        output = self.encoder(src, mask=self.src_mask)
        output = self.decoder(output)
        return F.log_softmax(output, dim=-1)


def batchify(data, bsz):
    nbatch = data.size(0) // bsz
    data = data.narrow(0, 0, nbatch * bsz)
    return data.view(bsz, -1).t().contiguous()


def get_batch(source, i, bptt):
    seq_len = min(bptt, len(source) - 1 - i)
    return source[i:i + seq_len], source[i + 1:i + 1 + seq_len].reshape(-1)


ntokens = 16
torch.manual_seed(42)
train_data = batchify(torch.randint(0, ntokens, (120,)), 4)
model = TransformerModel(ntokens, 8, 2, 16, 2, dropout=0.2)
print(model)
print(model.pos_encoder.pe.shape, model.pos_encoder.pe[3, 0])
print([n for n, _ in model.named_parameters()][-6:])
print(list(model.state_dict().keys())[:3])

lr = 2.0
bptt = 6
model.train()
losses = []
for batch, i in enumerate(range(0, train_data.size(0) - 1, bptt)):
    data, targets = get_batch(train_data, i, bptt)
    model.zero_grad()
    output = model(data)
    output = output.view(-1, ntokens)
    loss = F.nll_loss(output, targets)
    loss.backward()
    torch.nn.utils.clip_grad_norm_(model.parameters(), 0.25)
    for p in model.parameters():
        p.data.add_(p.grad, alpha=-lr)
    losses.append(round(loss.item(), 4))
print(losses)
print(model.src_mask)
print(model.encoder.layers[1].self_attn.out_proj.weight[0])

model.eval()
total = 0.
with torch.no_grad():
    for i in range(0, train_data.size(0) - 1, bptt):
        data, targets = get_batch(train_data, i, bptt)
        output = model(data).view(-1, ntokens)
        total += len(data) * F.nll_loss(output, targets).item()
print('eval loss {:5.4f}'.format(total / (len(train_data) - 1)))
print(model(train_data[:3], has_mask=False)[0, 0])


class TinyLM(nn.Module):
    def __init__(self, ntoken, d, nhead, nlayers):
        super().__init__()
        self.emb = nn.Embedding(ntoken, d)
        self.pos = nn.Parameter(torch.zeros(1, 32, d))
        layer = nn.TransformerEncoderLayer(d, nhead, 2 * d, dropout=0.1, batch_first=True,
                                           norm_first=True, activation='gelu')
        self.enc = nn.TransformerEncoder(layer, nlayers)
        self.head = nn.Linear(d, ntoken)

    def forward(self, idx):
        T = idx.size(1)
        x = self.emb(idx) + self.pos[:, :T]
        mask = nn.Transformer.generate_square_subsequent_mask(T)
        return self.head(self.enc(x, mask=mask))


torch.manual_seed(0)
lm = TinyLM(ntokens, 8, 2, 2)
opt = torch.optim.Adam(lm.parameters(), lr=1e-2)
seq = torch.randint(0, ntokens, (3, 9))
for step in range(4):
    logits = lm(seq[:, :-1])
    loss = F.cross_entropy(logits.reshape(-1, ntokens), seq[:, 1:].reshape(-1))
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(step, round(loss.item(), 5))
print(lm.enc.layers[0].norm1.weight)
