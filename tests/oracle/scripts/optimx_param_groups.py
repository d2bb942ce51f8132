# per-group options, add_param_group, zero_grad, params without grads, new optimizers
import torch
import torch.nn as nn

torch.manual_seed(2)
model = nn.Sequential(nn.Linear(3, 3), nn.ReLU(), nn.Linear(3, 2))
frozen = nn.Linear(2, 2)
x = torch.randn(6, 3)
for cls, extra in [(torch.optim.RMSprop, {'alpha': 0.5}), (torch.optim.Adagrad, {'lr_decay': 0.1}),
                   (torch.optim.Adadelta, {'rho': 0.5}), (torch.optim.Adamax, {'betas': (0.5, 0.6)}),
                   (torch.optim.NAdam, {'momentum_decay': 0.1}), (torch.optim.RAdam, {'eps': 1e-3}),
                   (torch.optim.ASGD, {'lambd': 0.1}), (torch.optim.Rprop, {'etas': (0.4, 1.1)})]:
    m = nn.Sequential(nn.Linear(3, 3), nn.ReLU(), nn.Linear(3, 2))
    m.load_state_dict(model.state_dict())
    groups = [{'params': m[0].parameters()}, dict(params=m[2].parameters(), lr=0.003, **extra)]
    opt = cls(groups, lr=0.02)
    opt.add_param_group({'params': frozen.parameters(), 'lr': 0.5})
    for step in range(5):
        opt.zero_grad()
        out = m(x)
        out.pow(2).mean().backward()
        opt.step()
    print(cls.__name__, [sorted(g.keys()) for g in opt.param_groups][1])
    print(' ', [g['lr'] for g in opt.param_groups], len(opt.state))
    print(' ', m[0].weight.sum().item(), m[2].weight.sum().item(), m[2].bias.tolist())
    print(' ', frozen.weight.grad, frozen.bias.tolist() == frozen.bias.tolist())
    opt.zero_grad()
    print(' ', m[0].weight.grad.abs().sum().item())
try:
    torch.optim.RMSprop([{'params': model[0].parameters()}, {'params': model[0].parameters()}])
except ValueError as e:
    print('ValueError:', e)
try:
    torch.optim.Adagrad([])
except ValueError as e:
    print('ValueError:', e)
