// Compiled training inside the runtime (training.cpp): the TrainingCode of an entry, and a call
// with grad run through it. Internal to core/runtime; no LibTorch here.
#pragma once

#include <memory>
#include <vector>

#include "core/runtime/runtime.h"

namespace fl::runtime {

// The joint graph, its partition and the two runnable graphs for a captured graph whose inputs
// require grad (null when none does), given its compiled code `c` (which outputs are views).
// Compiles nothing: the forward is compiled at the first call with grad, the backward at the
// first backward().
std::shared_ptr<TrainingCode> makeTraining(const capture::CapturedGraph& g, const Compiled& c);

// Runs a call with grad through the compiled training forward and attaches the compiled backward
// to its outputs. False (env untouched past the placeholders, `training->error` saying why when it
// is for good) when the call must take another path.
bool runTraining(script::Interp& in, const capture::CapturedGraph& g, Compiled& c, std::vector<script::Value>& env);

// Runs a graph op by op, as recorded (each node's invoke on its instantiated arguments): `env`
// holds the placeholders' values and gets every node's.
void runOpByOp(script::Interp& in, const capture::CapturedGraph& g, std::vector<script::Value>& env);

} // namespace fl::runtime
