# covers: word_language_model-style decoder (Embedding, Dropout, Linear, log_softmax) trained with nn.NLLLoss / CrossEntropy equivalence, clip_grad, state_dict round trip with InstanceNorm1d/GroupNorm layers
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(17)


class Model(nn.Module):
    def __init__(self, ntoken, ninp):
        super(Model, self).__init__()
        self.drop = nn.Dropout(0.2)
        self.encoder = nn.Embedding(ntoken, ninp)
        self.conv = nn.Conv1d(ninp, ninp, 3, padding=1)
        self.norm = nn.GroupNorm(2, ninp)
        self.decoder = nn.Linear(ninp, ntoken)
        self.init_weights()

    def init_weights(self):
        initrange = 0.1
        nn.init.uniform_(self.encoder.weight, -initrange, initrange)
        nn.init.zeros_(self.decoder.bias)
        nn.init.uniform_(self.decoder.weight, -initrange, initrange)

    def forward(self, input):
        emb = self.drop(self.encoder(input))  # (N, L, E)
        h = self.norm(self.conv(emb.transpose(1, 2))).transpose(1, 2)
        decoded = self.decoder(F.elu(h))
        return F.log_softmax(decoded, dim=-1)


ntokens = 11
model = Model(ntokens, 4)
print(model)
criterion = nn.NLLLoss()
opt = torch.optim.SGD(model.parameters(), lr=0.5)
data = torch.randint(0, ntokens, (3, 6))
targets = torch.randint(0, ntokens, (3, 6))
for step in range(3):
    model.zero_grad()
    output = model(data)
    loss = criterion(output.view(-1, ntokens), targets.view(-1))
    loss.backward()
    torch.nn.utils.clip_grad_norm_(model.parameters(), 0.25)
    opt.step()
    print(step, round(loss.item(), 4))
model.eval()
out = model(data)
ce = F.cross_entropy(model.decoder(F.elu(model.norm(model.conv(model.encoder(data).transpose(1, 2))).transpose(1, 2))).view(-1, ntokens), targets.view(-1))
print(round(F.nll_loss(out.view(-1, ntokens), targets.view(-1)).item(), 4), round(ce.item(), 4))
sd = model.state_dict()
print(list(sd.keys()))
m2 = Model(ntokens, 4)
print(m2.load_state_dict(sd))
m2.eval()
print(torch.equal(m2(data), out))
inorm = nn.InstanceNorm1d(3)
print(inorm.load_state_dict({}))
for strict in [False, True]:
    try:
        inorm.load_state_dict({'running_mean': torch.zeros(3), 'running_var': torch.ones(3)}, strict=strict)
    except RuntimeError as e:
        print('RuntimeError', e)
