# teaches: a small CNN classifier (Conv2d, BatchNorm2d, ReLU, Linear) compiled, trained a few steps, then evaluated
# look for: train() vs eval() changes BatchNorm2d (batch statistics vs running statistics), which means a separate compiled graph per mode
import torch
from torch import nn
import torch.nn.functional as F


class SmallCNN(nn.Module):
    def __init__(self, num_classes=4):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 8, kernel_size=3, padding=1)
        self.bn1 = nn.BatchNorm2d(8)
        self.conv2 = nn.Conv2d(8, 16, kernel_size=3, stride=2, padding=1)
        self.bn2 = nn.BatchNorm2d(16)
        self.relu = nn.ReLU()
        self.head = nn.Linear(16 * 4 * 4, num_classes)

    def forward(self, x):
        x = self.relu(self.bn1(self.conv1(x)))
        x = self.relu(self.bn2(self.conv2(x)))
        x = F.max_pool2d(x, 2)
        return self.head(x.flatten(1))


torch.manual_seed(0)
model = SmallCNN()
print(model)
compiled = torch.compile(model)

images = torch.randn(16, 1, 16, 16)
labels = torch.randint(0, 4, (16,))
opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)

compiled.train()
for step in range(1, 16):
    opt.zero_grad(set_to_none=True)
    logits = compiled(images)
    loss = F.cross_entropy(logits, labels)
    loss.backward()
    opt.step()
    if step % 5 == 0:
        acc = (logits.argmax(dim=1) == labels).float().mean().item()
        print(f"step {step:2d} loss {loss.item():.4f} acc {acc:.2f}")

print("running mean (bn1):", [round(v, 4) for v in model.bn1.running_mean[:4].tolist()])
print("batches tracked:", model.bn1.num_batches_tracked.item())

compiled.eval()
with torch.no_grad():
    logits = compiled(images[:4])
    again = compiled(images[:4])
print("eval logits shape:", logits.shape)
print("eval is deterministic:", torch.equal(logits, again))
print("predicted:", logits.argmax(dim=1).tolist(), "true:", labels[:4].tolist())
print(model.training, model.bn1.training)
