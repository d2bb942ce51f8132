# covers: list, dict and set comprehensions, generator expressions, nested comprehensions, conditions in comprehensions
import torch

torch.manual_seed(0)
squares = [i * i for i in range(8)]
print(squares)
evens = [i for i in range(20) if i % 2 == 0 if i % 3 != 0]
print(evens)
pairs = [(i, j) for i in range(3) for j in range(i)]
print(pairs)
matrix = [[r * 3 + c for c in range(3)] for r in range(3)]
print(matrix)
transposed = [[row[c] for row in matrix] for c in range(3)]
print(transposed)
flat = [x for row in matrix for x in row if x % 2]
print(flat)
labels = ["cat", "dog", "bird"]
index = {name: i for i, name in enumerate(labels)}
print(index)
inverse = {v: k for k, v in index.items()}
print(inverse)
lengths = {name: len(name) for name in labels if len(name) == 3}
print(lengths)
print({i % 3 for i in range(10)})
print(sum(i * i for i in range(10)))
print(max(len(w) for w in labels), min((len(w), w) for w in labels))
print(any(x > 7 for x in squares), all(x >= 0 for x in squares))
gen = (c.upper() for c in "abc")
print(list(gen), list(gen))
print(tuple(x * 2 for x in range(4)))
print(sorted((v for v in [3, 1, 2]), reverse=True))
print([x if x > 2 else -x for x in range(5)])
print(",".join(str(i) for i in range(5)))
print([[0] * 2 for _ in range(2)])
total = 0
for v in (x * 0.5 for x in range(4)):
    total += v
print(total)
x = "outer"
print([x for x in range(3)], x)
