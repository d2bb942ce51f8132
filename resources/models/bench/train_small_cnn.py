# bench anchor train_small_cnn: training steps of a small CNN classifier (Conv2d, BatchNorm2d in
# training mode, ReLU, max pooling, Linear) at batch 32 on 1x16x16 images: forward,
# cross-entropy loss, backward, SGD with momentum step; five steps in a row
# see README.md here; tests/training/ checks its losses against the uncompiled model's
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
compiled = torch.compile(model)
opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
images = torch.randn(32, 1, 16, 16)
labels = torch.randint(0, 4, (32,))

compiled.train()
# the first call captures and compiles; every later step replays the cached graph
for step in range(1, 6):
    opt.zero_grad(set_to_none=True)
    loss = F.cross_entropy(compiled(images), labels)
    loss.backward()
    opt.step()
    print(f"step {step} loss {loss.item():.4f}")
