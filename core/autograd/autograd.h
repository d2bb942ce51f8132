// Compiled training, the middle layer of torch.compile (AOTAutograd): from a captured forward
// graph, the joint graph (forward, then the backward built from the derivative rules), and its
// partition into a forward graph that also returns what the backward needs and a backward graph
// that recomputes the rest. Everything here is graph IR (core/graph): no torch, no Qt. The
// runtime compiles both graphs with the same pipeline as any captured graph.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/graph/graph.h"

namespace fl::autograd {

// A forward value the backward reads: node `node` of the forward graph (its item `index` of a
// tuple result, or -1).
struct ValueRef {
    int node = -1;
    int index = -1;
    bool operator==(const ValueRef& o) const { return node == o.node && index == o.index; }
    bool operator<(const ValueRef& o) const { return node != o.node ? node < o.node : index < o.index; }
};

// One partitioner choice, in the order they were made: a forward value the backward reads is
// saved (an output of the forward graph, kept until backward) or recomputed in the backward from
// saved values.
struct Decision {
    ValueRef value;
    std::string name; // the forward value's name ("gelu", "L_x_")
    bool saved = true;
    int64_t bytes = 0;  // its size (0: unknown, a dynamic shape)
    std::string reason; // one line: why
};

// Where a node of the backward graph comes from.
struct BackwardNode {
    enum Kind : uint8_t { Saved, Tangent, Recomputed, Rule } kind = Rule;
    int index = -1; // Saved: its place in Training::saved; Tangent: in Training::tangents; Recomputed: the forward node
};

struct Training {
    bool ok = false;
    std::string error; // why there is no compiled backward ("no derivative rule for torch.cumsum")

    graph::Graph joint;    // primals, tangents; forward nodes; backward nodes; (outputs..., grads...)
    graph::Graph forward;  // the captured forward, returning (outputs..., saved values that are not inputs...)
    graph::Graph backward; // (saved..., tangents...) -> one grad per differentiable input

    std::vector<ValueRef> saved;        // what the backward's Saved placeholders hold, in order
    std::vector<int> tangents;          // per tangent placeholder: the forward output position it is the grad of
    std::vector<int> gradInputs;        // per backward output: the forward placeholder it is the grad of
    std::vector<BackwardNode> origin;   // per backward graph node (before its output node)
    std::vector<Decision> decisions;    // the partitioner's, in order
    // Forward nodes rewritten into the library call that also returns what their backward reads
    // (max_pool2d -> max_pool2d_with_indices, batch_norm -> native_batch_norm, dropout in training
    // mode -> kDropoutWithNoise): same id, the captured value is item 0 of the new node's tuple (in
    // joint and forward).
    std::vector<int> rewritten;
    std::vector<int> aliasedOutputs;    // output positions the caller makes as views of inputs, outside the graphs: no tangent
    int forwardOutputs = 0;             // outputs of the captured graph (the training forward adds saved values after them)
    size_t jointBackwardNodes = 0;      // call nodes the derivative rules made
    size_t recomputed() const;
    size_t savedCount() const { return saved.size(); }
};

// The joint graph and the partition of a captured forward graph. Placeholders whose meta says
// requires_grad get gradients; call nodes whose meta says requires_grad are differentiated (a
// node traced under no_grad is not). `ok` is false, with `error`, when an op the gradient passes
// through has no rule (or a form of it the rules do not cover) or a shape is dynamic.
// `aliasedOutputs`: output positions that are inputs or views of inputs, which the caller hands
// out as eager views of its inputs (their gradient reaches the input through eager's view
// backward), as AOTAutograd regenerates them: they get no tangent.
Training buildTraining(const graph::Graph& forward, const std::vector<int>& aliasedOutputs = {});

// What a dropout in training mode becomes in the joint graph and the training forward:
// torch.ops.fuselab.dropout_with_noise(x, p) -> (x * noise, noise), eager's dropout returning the
// noise (0 or 1 / (1 - p) per element) it multiplied by, so the backward reads the mask instead of
// drawing one. The runtime runs it as eager's dropout draws (core/runtime/training.cpp).
extern const char* const kDropoutWithNoise;

// The ops the derivative rules cover, by base name ("linear", "gelu", ...), for docs and tests.
std::vector<std::string> differentiableOps();

// TORCH_LOGS=aot_joint_graph / aot_graphs: the graphs as torch.compile prints them.
std::string printJoint(const Training& t);
std::string printForwardBackward(const Training& t);

} // namespace fl::autograd
