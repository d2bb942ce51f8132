# Run on the GPU machine (real torch.compile, PyTorch 2.11): TORCH_LOGS=graph_breaks python3 tools/device/gen_fidelity.py
# How torch.compile treats generators: one made and consumed inside the compiled function, and one
# made outside and resumed inside. Prints the graph count and the graph breaks Dynamo reports.
import torch
import torch._dynamo

graphs = []


def backend(gm, example_inputs):
    graphs.append(gm)
    return gm.forward


def chunks(x):
    for i in range(2):
        yield x * (i + 1)


@torch.compile(backend=backend)
def inside(x):
    parts = list(chunks(x + 1))
    return parts[0] + parts[1]


print("inside:", inside(torch.ones(3)).tolist(), "graphs:", len(graphs))
graphs.clear()


@torch.compile(backend=backend)
def outside(x, gen):
    return x + next(gen)


src = (torch.full((3,), float(i)) for i in range(5))
print("outside:", outside(torch.ones(3), src).tolist(), outside(torch.ones(3), src).tolist(), "graphs:", len(graphs))
graphs.clear()


@torch.compile(backend=backend)
def genexp(x):
    return sum(v.sum() for v in (x, x * 2))


print("genexp:", genexp(torch.ones(3)).item(), "graphs:", len(graphs))
