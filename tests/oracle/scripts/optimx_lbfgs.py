# LBFGS with and without strong-Wolfe line search (closure-based)
import torch
import torch.nn as nn
import torch.nn.functional as F


def rosenbrock(p):
    return (1 - p[0]) ** 2 + 100 * (p[1] - p[0] ** 2) ** 2


for kwargs in [dict(), dict(lr=0.5, max_iter=5, history_size=3), dict(line_search_fn='strong_wolfe'),
               dict(lr=1, max_iter=7, history_size=4, line_search_fn='strong_wolfe')]:
    p = torch.nn.Parameter(torch.tensor([-1.5, 2.0]))
    opt = torch.optim.LBFGS([p], **kwargs)
    calls = [0]

    def closure():
        opt.zero_grad()
        loss = rosenbrock(p)
        loss.backward()
        calls[0] += 1
        return loss

    for i in range(4):
        loss = opt.step(closure)
        print(i, loss.item(), p.tolist(), calls[0])
    st = opt.state[p]
    print(sorted(st.keys()), st['func_evals'], st['n_iter'], len(st['old_dirs']))
    print(opt.state_dict()['param_groups'])

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(3, 5), nn.Tanh(), nn.Linear(5, 1))
x = torch.randn(16, 3)
y = torch.randn(16, 1)
opt = torch.optim.LBFGS(model.parameters(), lr=0.8, max_iter=10, line_search_fn='strong_wolfe')


def closure():
    opt.zero_grad()
    loss = F.mse_loss(model(x), y)
    loss.backward()
    return loss


for i in range(3):
    print('model', i, opt.step(closure).item())
for name, p in model.named_parameters():
    print(name, p.flatten().tolist())
try:
    torch.optim.LBFGS([{'params': [model[0].weight]}, {'params': [model[0].bias]}])
except ValueError as e:
    print('ValueError:', e)
