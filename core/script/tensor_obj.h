// The tensor object and the conversions between Python values and ATen arguments. Included only
// by the torch binding files (it pulls in ATen's headers, which are slow to compile).
#pragma once

#include <ATen/ATen.h>

#include <optional>
#include <string>
#include <vector>

#include "core/script/hooks.h"
#include "core/script/interp.h"
#include "core/script/value.h"

namespace fl::script {

struct TensorObj : Obj {
    at::Tensor t;
    bool isParameter = false;
    uint64_t markedDynamic = 0; // torch._dynamo.mark_dynamic: one bit per dim
    explicit TensorObj(at::Tensor x) : Obj(OK::Tensor), t(std::move(x)) {}
};

inline Value wrap(at::Tensor t) { return Value(std::make_shared<TensorObj>(std::move(t))); }
inline at::Tensor& tensorOf(const Value& v) { return v.as<TensorObj>()->t; }

// Runs f, turning LibTorch's errors into Python exceptions (RuntimeError, IndexError, ...).
void rethrowTorchError(Interp& in); // call from a catch(...) block
template <class F>
auto guarded(Interp& in, F&& f) -> decltype(f()) {
    try {
        return f();
    } catch (PyException&) {
        throw;
    } catch (Cancelled&) {
        throw;
    } catch (ControlSignal&) {
        throw;
    } catch (...) {
        rethrowTorchError(in);
    }
    throw; // unreachable
}

at::Tensor toTensor(Interp& in, const Value& v, const char* what);
at::Tensor tensorFromData(Interp& in, const Value& data, std::optional<at::ScalarType> dtype); // torch.tensor(data)
bool isScalarLike(const Value& v); // bool, int, float
at::Scalar toScalar(Interp& in, const Value& v, const char* what);
at::Tensor wrapScalar(const at::Scalar& s); // a "wrapped number" tensor: promotes like a Python scalar
// A bool parameter's value: PyTorch takes only a bool (keepdim=1 is "fn(): argument 'keepdim'
// must be bool, not int").
bool toBoolArg(Interp& in, const Value& v, const std::string& fn, const std::string& param);
std::vector<int64_t> toIntList(Interp& in, const Value& v, const char* what);
// torch.zeros(2, 3) / torch.zeros((2, 3)) / torch.zeros([2, 3]) / torch.zeros(torch.Size(...))
// The sizes of `fn(*size)` or `fn(size)` (view, reshape, zeros, ...): one int list or the ints
// themselves, with PyTorch's TypeError naming `fn`, the parameter and what it takes ("tuple of
// SymInts" for most; randn, rand and permute say "tuple of ints").
std::vector<int64_t> sizeArgs(Interp& in, const Value& varargs, const char* fn, const char* param = "size", bool symInts = true);
std::optional<at::ScalarType> toDtype(Interp& in, const Value& v);
// torch.FloatTensor, torch.LongTensor, ...: the legacy tensor types and their dtypes
const std::vector<std::pair<const char*, at::ScalarType>>& legacyTensorTypes();
Value dtypeValue(Interp& in, at::ScalarType st);
Value sizeValue(at::IntArrayRef sizes);
Value scalarToValue(const at::Tensor& t); // item()
Value tensorToList(Interp& in, const at::Tensor& t);
void checkDevice(Interp& in, const Value& v); // only the CPU exists for eager model scripts
// "cuda:1" -> type "cuda", index 1 (-1 without one), with PyTorch's errors for a bad string.
void parseDeviceString(Interp& in, const std::string& s, std::string& type, int& index);
void checkNumel(Interp& in, at::IntArrayRef sizes, at::ScalarType st);
// torch.Generator objects: the Python value of a LibTorch generator, and back (None: the default)
Value generatorValue(Interp& in, at::Generator g);
c10::optional<at::Generator> toGenerator(Interp& in, const Value& v);

// One table of tensor ops, exposed both as torch.NAME(...) and tensor.NAME(...).
void installTensorOps(Interp& in, const Value& torchModule);
void installFunctional(Interp& in, const Value& fModule);

} // namespace fl::script
