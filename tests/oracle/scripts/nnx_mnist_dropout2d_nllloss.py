# covers: nn.Dropout2d / Dropout1d / Dropout3d (repr, train/eval, channel masks), F.dropout2d, nn.NLLLoss / F.nll_loss (weights, ignore_index, reductions), mnist-style net
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(3)
d2 = nn.Dropout2d(0.25)
print(d2, nn.Dropout1d(), nn.Dropout3d(p=0.1, inplace=True))
x = torch.ones(2, 4, 2, 2, requires_grad=True)
y = d2(x)
print(y[:, :, 0, 0])
y.sum().backward()
print(x.grad[:, :, 0, 0])
d2.eval()
print(torch.equal(d2(x), x))
print(F.dropout2d(torch.ones(1, 3, 2, 2), 0.5, training=False).sum().item())
m = F.dropout2d(torch.ones(2, 6, 3, 3), 0.5)
print(m[:, :, 0, 0])
print(F.dropout1d(torch.ones(2, 5, 3), 0.5)[:, :, 0])
print(F.dropout1d(torch.ones(5, 3), 0.5)[:, 0])
print(F.dropout3d(torch.ones(2, 3, 2, 2, 2), 0.5)[:, :, 0, 0, 0])
print(nn.Dropout1d(0.5)(torch.ones(3, 4, 2))[:, :, 1])
try:
    nn.Dropout2d(1.5)
except ValueError as e:
    print('ValueError', e)
try:
    F.dropout1d(torch.ones(2, 2, 2, 2))
except RuntimeError as e:
    print('RuntimeError')

crit = nn.NLLLoss()
print(crit, list(crit.state_dict().keys()))
logits = torch.randn(5, 4, requires_grad=True)
lp = F.log_softmax(logits, dim=1)
t = torch.tensor([0, 3, 1, 1, 2])
loss = crit(lp, t)
print(round(loss.item(), 4))
loss.backward()
print(logits.grad)
w = torch.tensor([1.0, 2.0, 0.5, 1.5])
print(round(nn.NLLLoss(weight=w)(lp, t).item(), 4), list(nn.NLLLoss(weight=w).state_dict().keys()))
print(nn.NLLLoss(reduction='none')(lp, t).detach())
print(round(nn.NLLLoss(ignore_index=1, reduction='sum')(lp, t).item(), 4))
print(round(F.nll_loss(lp, t, reduction='sum').item(), 4))
img = torch.randn(2, 3, 2, 2).log_softmax(1)
tt = torch.tensor([[[0, 1], [2, 1]], [[2, 2], [0, 1]]])
print(round(F.nll_loss(img, tt).item(), 4))
print(nn.NLLLoss(reduction="sum"))


class Net(nn.Module):
    def __init__(self):
        super(Net, self).__init__()
        self.conv1 = nn.Conv2d(1, 4, 3, 1)
        self.conv2 = nn.Conv2d(4, 8, 3, 1)
        self.dropout1 = nn.Dropout(0.25)
        self.dropout2 = nn.Dropout(0.5)
        self.conv2_drop = nn.Dropout2d()
        self.fc1 = nn.Linear(8 * 2 * 2, 16)
        self.fc2 = nn.Linear(16, 10)

    def forward(self, x):
        x = F.relu(self.conv1(x))
        x = self.conv2_drop(self.conv2(x))
        x = F.relu(x)
        x = F.max_pool2d(x, 2)
        x = self.dropout1(x)
        x = torch.flatten(x, 1)
        x = F.relu(self.fc1(x))
        x = self.dropout2(x)
        x = self.fc2(x)
        return F.log_softmax(x, dim=1)


model = Net()
print(model)
data = torch.randn(3, 1, 8, 8)
target = torch.tensor([1, 7, 3])
out = model(data)
loss = F.nll_loss(out, target)
loss.backward()
print(round(loss.item(), 4))
print(model.fc2.bias.grad)
model.eval()
out2 = model(data)
print(out2.argmax(dim=1, keepdim=True).flatten())
