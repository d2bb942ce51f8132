// The fallback binding of torch.X / Tensor.X to LibTorch's operator registry (torch_dispatch.cpp).
#pragma once

#include <string>

#include "core/script/interp.h"
#include "core/script/value.h"

namespace fl::script {

// Builds the index of LibTorch's aten operators by name (otherwise built on first lookup).
void warmRegistryIndex();
// torch.NAME for an ATen operator the hand-written table lacks; false when there is none.
bool dispatchTorchAttr(Interp& in, const std::string& name, Value& out);
// torch._C._nn.NAME: any ATen operator by its registry name (PyTorch keeps the nn kernels there:
// upsample_nearest2d, im2col, glu, ...), for the prelude's torch.nn.functional.
bool dispatchNnAttr(Interp& in, const std::string& name, Value& out);
// torch.linalg.NAME, torch.fft.NAME, torch.special.NAME: the registry's PREFIX + NAME
// (linalg_qr, fft_rfft, special_expit), exposed in namespace `ns`.
bool dispatchPrefixedAttr(Interp& in, const std::string& ns, const std::string& prefix, const std::string& name, Value& out);
// tensor.NAME (bound to `self`) likewise.
bool dispatchTensorAttr(Interp& in, const Value& self, const std::string& name, Value& out);

} // namespace fl::script
