# covers: torch.compile of models containing nn.LSTM, nn.GRUCell loops and nn.TransformerEncoder
# (compiled results compared with eager ones), and a bidirectional LSTM sequence classifier trained
# with a compiled forward
import torch
from torch import nn
import torch.nn.functional as F


class Classifier(nn.Module):
    def __init__(self, vocab, emb, hid, ncls):
        super().__init__()
        self.emb = nn.Embedding(vocab, emb)
        self.lstm = nn.LSTM(emb, hid, batch_first=True, bidirectional=True)
        self.fc = nn.Linear(2 * hid, ncls)

    def forward(self, x):
        out, (h, c) = self.lstm(self.emb(x))
        feat = torch.cat([h[0], h[1]], dim=1)
        return self.fc(F.relu(feat)), out.mean(1)


torch.manual_seed(0)
model = Classifier(12, 5, 6, 3)
x = torch.randint(0, 12, (4, 7))
y = torch.tensor([0, 1, 2, 1])
eager_logits, eager_mean = model(x)
cmodel = torch.compile(model)
c_logits, c_mean = cmodel(x)
print(torch.allclose(eager_logits, c_logits, atol=1e-6), torch.allclose(eager_mean, c_mean, atol=1e-6))
print(eager_logits)
opt = torch.optim.SGD(model.parameters(), lr=0.5)
for step in range(4):
    logits, _ = cmodel(x)
    loss = F.cross_entropy(logits, y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(step, round(loss.item(), 4))


class CellLoop(nn.Module):
    def __init__(self):
        super().__init__()
        self.cell = nn.GRUCell(3, 4)
        self.head = nn.Linear(4, 1)

    def forward(self, xs):
        h = torch.zeros(xs.size(1), 4)
        for t in range(xs.size(0)):
            h = self.cell(xs[t], h)
        return self.head(h)


torch.manual_seed(1)
cl = CellLoop()
xs = torch.randn(5, 2, 3)
print(torch.allclose(cl(xs), torch.compile(cl)(xs), atol=1e-6))
print(cl(xs))

torch.manual_seed(2)
enc = nn.TransformerEncoder(nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0), 2)
src = torch.randn(6, 2, 8)
mask = nn.Transformer.generate_square_subsequent_mask(6)
e = enc(src, mask=mask)
ce = torch.compile(enc)(src, mask=mask)
print(torch.allclose(e, ce, atol=1e-5))
print(e[5])
