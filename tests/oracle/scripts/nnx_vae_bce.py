# covers: F.binary_cross_entropy (reductions, weight), F.binary_cross_entropy_with_logits, nn.BCEWithLogitsLoss (pos_weight buffer), VAE loss function
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(4)


class VAE(nn.Module):
    def __init__(self):
        super(VAE, self).__init__()
        self.fc1 = nn.Linear(16, 8)
        self.fc21 = nn.Linear(8, 2)
        self.fc22 = nn.Linear(8, 2)
        self.fc3 = nn.Linear(2, 8)
        self.fc4 = nn.Linear(8, 16)

    def encode(self, x):
        h1 = F.relu(self.fc1(x))
        return self.fc21(h1), self.fc22(h1)

    def reparameterize(self, mu, logvar):
        std = torch.exp(0.5 * logvar)
        eps = torch.randn_like(std)
        return mu + eps * std

    def decode(self, z):
        h3 = F.relu(self.fc3(z))
        return torch.sigmoid(self.fc4(h3))

    def forward(self, x):
        mu, logvar = self.encode(x.view(-1, 16))
        z = self.reparameterize(mu, logvar)
        return self.decode(z), mu, logvar


def loss_function(recon_x, x, mu, logvar):
    BCE = F.binary_cross_entropy(recon_x, x.view(-1, 16), reduction='sum')
    KLD = -0.5 * torch.sum(1 + logvar - mu.pow(2) - logvar.exp())
    return BCE + KLD


model = VAE()
data = torch.rand(4, 1, 4, 4)
recon, mu, logvar = model(data)
loss = loss_function(recon, data, mu, logvar)
print(round(loss.item(), 3))
loss.backward()
print(model.fc4.bias.grad.shape, round(model.fc1.weight.grad.abs().sum().item(), 3))

p = torch.tensor([[0.2, 0.9, 0.5], [0.7, 0.1, 0.4]], requires_grad=True)
t = torch.tensor([[0.0, 1.0, 1.0], [1.0, 0.0, 0.0]])
print(F.binary_cross_entropy(p, t))
print(F.binary_cross_entropy(p, t, reduction='none'))
print(F.binary_cross_entropy(p, t, weight=torch.tensor([1.0, 2.0, 3.0]), reduction='sum'))
F.binary_cross_entropy(p, t).backward()
print(p.grad)
bce = nn.BCELoss(reduction='none')
print(bce, bce(p, t).detach())
z = torch.tensor([[-1.0, 2.0, 0.5], [0.3, -0.2, 1.5]], requires_grad=True)
crit = nn.BCEWithLogitsLoss(pos_weight=torch.tensor([1.0, 2.0, 0.5]))
print(crit, list(crit.state_dict().keys()), crit.weight)
l = crit(z, t)
print(l)
l.backward()
print(z.grad)
print(nn.BCEWithLogitsLoss(reduction='sum')(z, t))
print(F.binary_cross_entropy_with_logits(z, t, reduction='none'))
print(list(nn.BCEWithLogitsLoss().state_dict().keys()))
