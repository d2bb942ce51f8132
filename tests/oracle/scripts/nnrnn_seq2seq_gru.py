# covers: a seq2seq GRU encoder / attention decoder (PyTorch tutorial style): bidirectional GRU
# encoder with batch_first, GRUCell decoder stepping with additive attention (bmm + softmax),
# teacher forcing, greedy decoding, training with Adam and CrossEntropyLoss
import torch
import torch.nn as nn
import torch.nn.functional as F


class Encoder(nn.Module):
    def __init__(self, vocab, emb, hid):
        super().__init__()
        self.embedding = nn.Embedding(vocab, emb)
        self.rnn = nn.GRU(emb, hid, batch_first=True, bidirectional=True)
        self.fc = nn.Linear(2 * hid, hid)

    def forward(self, src):
        outputs, hidden = self.rnn(self.embedding(src))
        hidden = torch.tanh(self.fc(torch.cat((hidden[-2], hidden[-1]), dim=1)))
        return outputs, hidden


class Attention(nn.Module):
    def __init__(self, hid):
        super().__init__()
        self.attn = nn.Linear(3 * hid, hid)
        self.v = nn.Linear(hid, 1, bias=False)

    def forward(self, hidden, enc_out):
        T = enc_out.size(1)
        h = hidden.unsqueeze(1).repeat(1, T, 1)
        energy = torch.tanh(self.attn(torch.cat((h, enc_out), dim=2)))
        return F.softmax(self.v(energy).squeeze(2), dim=1)


class Decoder(nn.Module):
    def __init__(self, vocab, emb, hid):
        super().__init__()
        self.embedding = nn.Embedding(vocab, emb)
        self.attention = Attention(hid)
        self.cell = nn.GRUCell(emb + 2 * hid, hid)
        self.out = nn.Linear(hid, vocab)

    def forward(self, tok, hidden, enc_out):
        a = self.attention(hidden, enc_out)
        ctx = torch.bmm(a.unsqueeze(1), enc_out).squeeze(1)
        hidden = self.cell(torch.cat((self.embedding(tok), ctx), dim=1), hidden)
        return self.out(hidden), hidden, a


torch.manual_seed(0)
V, E, H = 10, 6, 8
enc = Encoder(V, E, H)
dec = Decoder(V, E, H)
print(enc)
print(dec)
params = list(enc.parameters()) + list(dec.parameters())
opt = torch.optim.Adam(params, lr=0.01)
crit = nn.CrossEntropyLoss()
src = torch.randint(1, V, (3, 5))
tgt = torch.flip(src, dims=[1])
for step in range(5):
    opt.zero_grad()
    enc_out, hidden = enc(src)
    tok = torch.zeros(3, dtype=torch.long)
    loss = 0
    for t in range(tgt.size(1)):
        logits, hidden, a = dec(tok, hidden, enc_out)
        loss = loss + crit(logits, tgt[:, t])
        tok = tgt[:, t]
    loss = loss / tgt.size(1)
    loss.backward()
    torch.nn.utils.clip_grad_norm_(params, 1.0)
    opt.step()
    print(step, round(loss.item(), 5))

with torch.no_grad():
    enc_out, hidden = enc(src)
    tok = torch.zeros(3, dtype=torch.long)
    outs = []
    for t in range(5):
        logits, hidden, a = dec(tok, hidden, enc_out)
        tok = logits.argmax(1)
        outs.append(tok)
    print(torch.stack(outs, 1))
    print(a)
print(enc.rnn.weight_hh_l0_reverse.grad[0])
