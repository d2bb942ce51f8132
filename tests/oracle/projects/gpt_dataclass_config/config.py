from dataclasses import dataclass, field


@dataclass
class ModelConfig:
    vocab_size: int = 32
    block_size: int = 8
    n_embd: int = 16
    n_head: int = 2
    n_layer: int = 2
    bias: bool = False
    layer_names: list = field(default_factory=list)

    def __post_init__(self):
        assert self.n_embd % self.n_head == 0
        self.layer_names = ["h.%d" % i for i in range(self.n_layer)]
