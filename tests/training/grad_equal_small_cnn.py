# One training step of resources/models/small_cnn.py's CNN (Conv2d, BatchNorm2d in training mode,
# ReLU, max pooling, Linear), compiled on one copy and eager on a deep copy, on the same batch:
# every parameter's gradient and value after the step, and BatchNorm's running statistics, must
# be eager's within 1e-5 of the tensor's largest magnitude (or, for a gradient that cancels to
# rounding noise, within 16 times eager's own error against a float64 copy). Two steps: the first call captures
# and compiles, the second replays the cached graph. Run by tests/training/check_training.py.
import copy
import torch
from torch import nn
import torch.nn.functional as F

from grad_compare import compare


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
ref = copy.deepcopy(model)
ref64 = copy.deepcopy(model).double()  # float64, eager: what float32 can get right at all
compiled = torch.compile(model)
opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
opt_ref = torch.optim.SGD(ref.parameters(), lr=0.05, momentum=0.9)
opt_ref64 = torch.optim.SGD(ref64.parameters(), lr=0.05, momentum=0.9)
images = torch.randn(16, 1, 16, 16)
labels = torch.randint(0, 4, (16,))
compiled.train()
ref.train()
ref64.train()

bad = []
for step in (1, 2):
    print(f"step {step}")
    opt.zero_grad(set_to_none=True)
    opt_ref.zero_grad(set_to_none=True)
    loss = F.cross_entropy(compiled(images), labels)
    loss.backward()
    loss_ref = F.cross_entropy(ref(images), labels)
    loss_ref.backward()
    opt_ref64.zero_grad(set_to_none=True)
    F.cross_entropy(ref64(images.double()), labels).backward()
    print(f"loss {loss.item():.6f} eager {loss_ref.item():.6f}")
    bad += compare("grad", [(n, p.grad, q.grad) for (n, p), (_, q) in zip(model.named_parameters(), ref.named_parameters())],
                   [r.grad for r in ref64.parameters()])
    opt.step()
    opt_ref.step()
    opt_ref64.step()
    bad += compare("after step", [(n, p.detach(), q.detach()) for (n, p), (_, q) in zip(model.named_parameters(), ref.named_parameters())])
    bad += compare("buffer", [(n, b.float(), c.float()) for (n, b), (_, c) in zip(model.named_buffers(), ref.named_buffers())])
assert not bad, "compiled gradients differ from eager's by more than 1e-5 of their size: " + ", ".join(bad)
print("gradients match")
