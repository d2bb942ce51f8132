// The compiled-graph runtime (see runtime.h). One of the few files with LibTorch headers.
#include "core/runtime/runtime.h"
#include "core/runtime/training.h"

#include <ATen/ATen.h>
#include <ATen/Parallel.h>
#include <torch/csrc/autograd/autograd.h>
#include <torch/csrc/autograd/function.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdlib>
#include <functional>
#include <mutex>
#include <thread>

#include "core/graph/ops.h"
#include "core/jit/jit.h"
#include "core/support/events.h"
#include "core/script/tensor_obj.h"

namespace fl::runtime {

using script::Value;
using script::CallArgs;
using namespace lower;

namespace {

// ------------------------------------------------------------------ thread pool
using KernelFn = void (*)(void* const*, const long*, const float*, long, long);

class Pool {
public:
    static Pool& get() {
        static Pool p;
        return p;
    }
    int size() const { return threads_; }
    void resize(int n) {
        stop();
        threads_ = std::max(1, n);
        uint64_t start;
        {
            std::lock_guard<std::mutex> lk(mu_);
            start = generation_; // a worker must not miss a job posted before it first waits
        }
        for (int i = 1; i < threads_; ++i) workers_.emplace_back([this, i, start] { loop(i, start); });
    }
    // Runs f(begin, end) over [0, rows) on at most `parts` threads. The rows go out in contiguous
    // chunks, kChunksPerThread per thread, taken in order from a shared counter: a thread that is
    // late to wake or slowed (a shared machine) takes fewer, instead of the call waiting for it.
    // Every row is computed the same whichever thread runs it, so results do not depend on this.
    void run(int64_t rows, int parts, const std::function<void(int64_t, int64_t)>& f) {
        parts = int(std::min<int64_t>(std::min(parts, threads_), rows));
        if (parts <= 1) { f(0, rows); return; }
        {
            std::lock_guard<std::mutex> lk(mu_);
            job_ = &f;
            rows_ = rows;
            chunks_ = std::min<int64_t>(rows, int64_t(parts) * kChunksPerThread);
            next_.store(0, std::memory_order_relaxed);
            parts_ = parts;
            pending_ = parts - 1;
            ++generation_;
        }
        cv_.notify_all();
        work(f, rows, chunks_);
        std::unique_lock<std::mutex> lk(mu_);
        done_.wait(lk, [&] { return pending_ == 0; });
        job_ = nullptr;
    }
    ~Pool() { stop(); }

private:
    Pool() { resize(std::max(1, at::get_num_threads())); }
    void stop() {
        {
            std::lock_guard<std::mutex> lk(mu_);
            quit_ = true;
            ++generation_;
        }
        cv_.notify_all();
        for (auto& t : workers_) t.join();
        workers_.clear();
        quit_ = false;
    }
    void loop(int index, uint64_t seen) {
        for (;;) {
            const std::function<void(int64_t, int64_t)>* job;
            int64_t rows, chunks;
            int parts;
            {
                std::unique_lock<std::mutex> lk(mu_);
                cv_.wait(lk, [&] { return generation_ != seen || quit_; });
                seen = generation_;
                if (quit_) return;
                job = job_;
                rows = rows_;
                chunks = chunks_;
                parts = parts_;
            }
            if (!job || index >= parts) continue;
            work(*job, rows, chunks);
            std::lock_guard<std::mutex> lk(mu_);
            if (--pending_ == 0) done_.notify_one();
        }
    }
    static constexpr int64_t kChunksPerThread = 8;
    void work(const std::function<void(int64_t, int64_t)>& f, int64_t rows, int64_t chunks) {
        for (int64_t c; (c = next_.fetch_add(1, std::memory_order_relaxed)) < chunks;)
            f(rows * c / chunks, rows * (c + 1) / chunks);
    }
    int threads_ = 1;
    std::atomic<int64_t> next_{0};
    int64_t chunks_ = 0;
    std::vector<std::thread> workers_;
    std::mutex mu_;
    std::condition_variable cv_, done_;
    const std::function<void(int64_t, int64_t)>* job_ = nullptr;
    int64_t rows_ = 0;
    int parts_ = 0, pending_ = 0;
    uint64_t generation_ = 0;
    bool quit_ = false;
};

// Memory for kernel outputs and intermediates, kept after use and handed out again for the same
// size: a buffer that was written before needs no page faults (a fresh 16 MiB block costs
// thousands of them, more than the kernel that fills it). Blocks return here when their last
// tensor dies, from any thread; at most kHeldBytes are kept.
class BlockPool {
public:
    static BlockPool& get() {
        static BlockPool* p = new BlockPool; // outlives tensors destroyed at exit
        return *p;
    }
    at::Tensor tensor(const std::vector<int64_t>& sizes, at::ScalarType dtype) {
        int64_t n = 1;
        for (auto s : sizes) n *= s;
        size_t bytes = std::max<size_t>(64, (size_t(n) * at::elementSize(dtype) + 63) / 64 * 64);
        if (bytes < kMinPooled) return at::empty(sizes, at::TensorOptions().dtype(dtype));
        void* p = take(bytes);
        return at::from_blob(p, sizes, [bytes](void* q) { BlockPool::get().give(q, bytes); }, at::TensorOptions().dtype(dtype));
    }

private:
    static constexpr size_t kMinPooled = 64 * 1024;
    static constexpr size_t kHeldBytes = size_t(512) << 20;
    void* take(size_t bytes) {
        {
            std::lock_guard<std::mutex> lk(mu_);
            auto it = free_.find(bytes);
            if (it != free_.end()) {
                void* p = it->second;
                free_.erase(it);
                held_ -= bytes;
                return p;
            }
        }
        void* p = std::aligned_alloc(64, bytes);
        if (!p) throw std::bad_alloc();
        return p;
    }
    void give(void* p, size_t bytes) {
        std::lock_guard<std::mutex> lk(mu_);
        if (held_ + bytes > kHeldBytes) {
            std::free(p);
            return;
        }
        free_.emplace(bytes, p);
        held_ += bytes;
    }
    std::mutex mu_;
    std::multimap<size_t, void*> free_;
    size_t held_ = 0;
};

// A float tensor's elements copied, in row-major order, to contiguous memory at dst, on the pool.
// LibTorch's own copies run on its OpenMP threads, which then spin for a while after the copy; a
// BLAS call right after it (OpenBLAS has its own threads) shares the two cores with that spinning:
// the attention matmuls of transformer_block took 16-17 ms each after LibTorch's copies and 7.4 ms
// after none (LibTorch 1.13 with OpenBLAS, 2 threads). The pool's threads sleep when idle.
void poolCopy(const at::Tensor& src, float* dst) {
    const int64_t nd = src.dim();
    const int64_t last = nd ? src.size(nd - 1) : 1;
    const int64_t rows = last ? src.numel() / last : 0;
    const int64_t step = nd ? src.stride(nd - 1) : 1;
    const float* base = src.data_ptr<float>();
    auto sz = src.sizes();
    auto st = src.strides();
    Pool::get().run(rows, rows * last < 32768 ? 1 : Pool::get().size(), [&](int64_t r0, int64_t r1) {
        for (int64_t r = r0; r < r1; ++r) {
            int64_t off = 0;
            for (int64_t d = nd - 2, q = r; d >= 0; --d) {
                off += (q % sz[d]) * st[d];
                q /= sz[d];
            }
            const float* in = base + off;
            float* out = dst + r * last;
            if (step == 1)
                for (int64_t i = 0; i < last; ++i) out[i] = in[i];
            else
                for (int64_t i = 0; i < last; ++i) out[i] = in[i * step];
        }
    });
}

// t itself when it is row-major (contiguous), else a row-major copy: float tensors copied on the
// pool into a kept block (see poolCopy), others by LibTorch.
at::Tensor rowMajor(const at::Tensor& t) {
    if (t.is_contiguous()) return t;
    if (t.scalar_type() != at::kFloat) return t.contiguous();
    at::Tensor m = BlockPool::get().tensor(t.sizes().vec(), at::kFloat);
    poolCopy(t, m.data_ptr<float>());
    return m;
}


// ------------------------------------------------------------------ compile
DType dtypeOf(at::ScalarType t, bool& ok) {
    ok = true;
    if (t == at::kFloat) return DType::F32;
    if (t == at::kBool) return DType::Bool;
    if (t == at::kLong) return DType::I64;
    ok = false;
    return DType::F32;
}
at::ScalarType scalarType(DType d) { return d == DType::F32 ? at::kFloat : d == DType::Bool ? at::kBool : at::kLong; }

} // namespace

void setThreads(int n) {
    at::set_num_threads(n);
    Pool::get().resize(n);
}
int threads() { return Pool::get().size(); }

GradModeScope::GradModeScope(bool enabled) : saved_(at::GradMode::is_enabled()) { at::GradMode::set_enabled(enabled); }
GradModeScope::~GradModeScope() { at::GradMode::set_enabled(saved_); }
capture::Backend* fuselabBackend() {
    struct FuselabBackend final : capture::Backend {
        std::shared_ptr<capture::CompiledCode> compile(const capture::Entry& e, double traceMs) override { return runtime::compile(e, traceMs); }
    };
    static FuselabBackend backend;
    return &backend;
}

// Where the linked LibTorch's eager math is not what the kernel math (codegen/kmath) computes, the
// op runs eagerly (graph::setEagerOnly). The kernels follow LibTorch 1.13, whose log1p (Sleef's)
// is inf above 1e38; later LibTorch gives the finite value there, and a kernel would not.
void probeEagerMath() {
    at::Tensor big = at::full({16}, 1.01e38, at::kFloat); // a whole vector: the vectorized kernel
    if (std::isfinite(at::log1p(big)[0].item<float>()))
        graph::setEagerOnly(graph::Op::Log1p, "this LibTorch's log1p is finite above 1e38, where the kernel's (LibTorch 1.13's) is inf: "
                                              "runs eagerly so the result is eager's");
}

std::shared_ptr<Compiled> compile(const capture::Entry& e, double traceMs) {
    static std::once_flag probed;
    std::call_once(probed, probeEagerMath);
    auto c = std::make_shared<Compiled>();
    fl::compile::run(e.graph, traceMs, *c, *c);
    if (c->ok) c->training = makeTraining(e.graph, *c);
    return c;
}

// ------------------------------------------------------------------ execution
namespace {

struct Run {
    script::Interp& in;
    const capture::CapturedGraph& g;
    Compiled& c;
    std::vector<Value>& env;
    std::vector<at::Tensor> bufs;
    std::vector<uint8_t> haveValue;
    std::vector<int64_t> symVals;
    std::map<std::string, int64_t> symEnv;
    std::vector<float> scalars;

    struct Mismatch {};

    int64_t eval(const IE& e) { return evaluate(e, symEnv); }
    std::vector<int64_t> sizes(const Shape& s) {
        std::vector<int64_t> r;
        for (auto& d : s) r.push_back(eval(d));
        return r;
    }

    Value valueOf(int node) {
        if (haveValue[node]) return env[node];
        const GraphNodeInfo& gi = c.lowered.info[node];
        const capture::OpNode& n = g.nodes[node];
        if (gi.viewOp && graph::opOfTarget(n.target) == graph::Op::Contiguous && n.pos.size() == 1 && n.kw.empty()) {
            // a copy where one is needed, on the pool (see rowMajor): LibTorch's copy before the
            // projection of transformer_block's attention output made its GEMM 8.0 ms, not 3.6
            env[node] = script::wrap(rowMajor(script::tensorOf(instantiate(n.pos[0]))));
        } else if (gi.viewOp || n.placeholder) {
            CallArgs ca;
            for (auto& a : n.pos) ca.pos.push_back(instantiate(a));
            for (auto& [k, a] : n.kw) ca.kw.emplace_back(k, instantiate(a));
            env[node] = n.invoke(in, ca);
        } else if (!gi.items.empty()) { // a tuple its kernels computed (max_pool2d_with_indices)
            std::vector<Value> items;
            for (auto& it : gi.items) {
                if (it.kind != LoweredValue::Buffer || !bufs[it.buffer].defined()) throw std::logic_error("a graph value was not computed");
                items.push_back(script::wrap(bufs[it.buffer]));
            }
            env[node] = script::makeTuple(std::move(items));
        } else {
            int pn = c.producerOf[node];
            if (pn < 0 || !bufs[pn].defined()) throw std::logic_error("a graph value was not computed");
            env[node] = script::wrap(bufs[pn]);
        }
        haveValue[node] = 1;
        return env[node];
    }
    Value instantiate(const capture::ArgT& a) {
        switch (a.kind) {
        case capture::ArgT::Const: return a.c;
        case capture::ArgT::Ref: {
            Value v = valueOf(a.node);
            if (a.index < 0) return v;
            if (!v.is(script::OK::Tuple) || size_t(a.index) >= v.as<script::TupleObj>()->items.size()) throw Mismatch{};
            return v.as<script::TupleObj>()->items[a.index];
        }
        default: return capture::instantiateArg(a, env, [&](int node) { valueOf(node); });
        }
    }

    // A kernel's result, laid out as eager's was (lower::Node::strides): dense either way.
    at::Tensor alloc(const Node& n) {
        at::Tensor t = BlockPool::get().tensor(sizes(n.shape), scalarType(n.dtype));
        if (n.strides.empty()) return t;
        std::vector<int64_t> st;
        for (auto& s : n.strides) st.push_back(eval(s));
        return t.as_strided(t.sizes(), st);
    }

    void bindInputs() {
        const Program& p = c.lowered.program;
        symVals.assign(p.symbols.size(), 0);
        for (size_t i = 0; i < p.symbols.size(); ++i) {
            const auto& src = p.symbolSource[i];
            const Value& v = env[p.nodes[src.input].graphNode];
            if (!v.isTensor()) throw Mismatch{};
            const at::Tensor& t = script::tensorOf(v);
            if (src.dim >= t.dim()) throw Mismatch{};
            symVals[i] = t.size(src.dim);
            symEnv[p.symbols[i]] = symVals[i];
        }
        for (auto& n : p.nodes) {
            if (n.kind != NodeKind::Input) continue;
            const Value& v = env[n.graphNode];
            if (n.scalar) {
                if (!v.isNumber()) throw Mismatch{};
                scalars.push_back(float(v.num()));
                continue;
            }
            if (!v.isTensor()) throw Mismatch{};
            const at::Tensor& t = script::tensorOf(v);
            bool ok;
            if (dtypeOf(t.scalar_type(), ok) != n.dtype || !ok || t.dim() != int64_t(n.shape.size())) throw Mismatch{};
            for (size_t d = 0; d < n.shape.size(); ++d)
                if (t.size(d) != eval(n.shape[d])) throw Mismatch{};
            bufs[n.id] = rowMajor(t);
        }
    }

    // Program::indexChecks on the buffers that exist now (inputs: before anything runs; computed
    // indices: after the graph ran, before its result is used). A row outside the table is eager's
    // IndexError: the call then runs eagerly and raises it there.
    void checkIndices(bool inputs) {
        const Program& p = c.lowered.program;
        for (auto& chk : p.indexChecks) {
            if ((p.nodes[size_t(chk.buffer)].kind == NodeKind::Input) != inputs) continue;
            const at::Tensor& t = bufs[size_t(chk.buffer)];
            if (!t.defined()) throw Mismatch{};
            if (t.numel() == 0) continue;
            const int64_t upper = eval(chk.upper);
            const int64_t* d = t.data_ptr<int64_t>(); // dense (inputs and fallbacks row-major), int64 (lowering)
            for (int64_t i = 0, n = t.numel(); i < n; ++i)
                if ((d[i] < 0 || d[i] >= upper) && !(chk.ignores && d[i] == chk.ignored)) throw Mismatch{};
        }
    }

    void runKernel(size_t k) {
        const codegen::Kernel& kr = c.kernels[k];
        std::vector<void*> ptrs(kr.buffers.size());
        for (size_t i = 0; i < kr.buffers.size(); ++i) {
            int b = kr.buffers[i];
            if (kr.writes[i] && !bufs[b].defined()) bufs[b] = alloc(c.lowered.program.nodes[b]);
            if (!bufs[b].defined()) throw std::logic_error("a kernel input was not computed");
            ptrs[i] = bufs[b].data_ptr();
        }
        int64_t rows = eval(kr.rows);
        auto fn = reinterpret_cast<KernelFn>(c.fns[k]);
        const long* sym = reinterpret_cast<const long*>(symVals.data());
        const float* sc = scalars.data();
        int64_t work = rows * kr.costPerRow;
        // Small kernels run on the calling thread. Below about 256K elements of work, waking the
        // pool's threads costs more than they save, and more so beside library calls, after which
        // LibTorch's OpenMP threads spin on the same cores (a CNN's training step: 0.98-1.00x
        // eager with 32K here, 1.05-1.07x with 256K; the large anchors unchanged).
        int parts = work < 262144 ? 1 : Pool::get().size();
        Pool::get().run(rows, parts, [&](int64_t b, int64_t e) { fn(ptrs.data(), sym, sc, b, e); });
    }

    // A dropout's noise (lower::kDropoutNoise): at::dropout of ones laid out as eager's input
    // draws what eager's dropout draws (bernoulli_(1 - p) on empty_like(x), divided by 1 - p), on
    // the same generator; stored row-major.
    void runDropoutNoise(const Node& n) {
        const capture::OpNode& op = g.nodes[n.fromGraphNodes[0]];
        const capture::ArgT* pa = op.pos.size() > 1 ? &op.pos[1] : nullptr;
        if (!pa)
            for (auto& [k, x] : op.kw)
                if (k == "p") pa = &x;
        double p = 0.5;
        if (pa) {
            Value v = instantiate(*pa);
            if (!v.isNumber()) throw Mismatch{};
            p = v.num();
        }
        std::vector<int64_t> sz = sizes(n.shape), st(sz.size());
        std::vector<int> order = n.drawOrder;
        if (order.empty())
            for (size_t d = 0; d < sz.size(); ++d) order.push_back(int(d));
        if (order.size() != sz.size()) throw Mismatch{};
        int64_t acc = 1;
        for (size_t k = order.size(); k-- > 0;) {
            st[size_t(order[k])] = acc;
            acc *= std::max<int64_t>(sz[size_t(order[k])], 1);
        }
        at::Tensor ones = at::empty_strided(sz, st, at::kFloat).fill_(1);
        bufs[n.id] = rowMajor(at::dropout(ones, p, true));
    }

    // A library call (mm / matmul, a dropout's noise, or an op that is a library call by design,
    // run as recorded), then its pointwise epilogue when the schedule made one.
    void runExtern(const Node& n, int epilogueKernel) {
        if (n.callee == lower::kDropoutNoise || lower::isLibraryCall(n.callee)) {
            if (n.callee == lower::kDropoutNoise) runDropoutNoise(n);
            else runFallback(n);
            if (epilogueKernel >= 0) runKernel(size_t(epilogueKernel));
            return;
        }
        const capture::OpNode& op = g.nodes[n.fromGraphNodes[0]];
        at::Tensor a = script::tensorOf(instantiate(op.pos[0]));
        const capture::ArgT* bArg = op.pos.size() > 1 ? &op.pos[1] : nullptr;
        if (!bArg)
            for (auto& [k, x] : op.kw)
                if (k == "weight" || k == "other") bArg = &x;
        at::Tensor b = script::tensorOf(instantiate(*bArg));
        at::Tensor rhs = graph::opNamed(n.callee) == graph::Op::Linear ? b.t() : b;
        std::vector<int64_t> outSizes = sizes(n.shape);
        if (a.dim() >= 2 && rhs.dim() == 2 && a.scalar_type() == at::kFloat && rhs.scalar_type() == at::kFloat) {
            // one GEMM over all rows of a (its leading dims folded), into a pool block. A 2-D a
            // goes to the BLAS with its strides as they are; an a of three or more dims that is
            // not row-major is copied on the pool first (see poolCopy).
            at::Tensor a2 = a.dim() == 2 ? a : rowMajor(a).view({-1, a.size(-1)});
            at::Tensor out = BlockPool::get().tensor({a2.size(0), rhs.size(1)}, at::kFloat);
            if (out.numel() != c10::multiply_integers(outSizes)) throw Mismatch{};
            at::mm_out(out, a2, rhs);
            bufs[n.id] = out.view(outSizes);
        } else if (a.dim() >= 3 && rhs.dim() >= 3 && a.scalar_type() == at::kFloat && rhs.scalar_type() == at::kFloat) {
            // batched: both sides as 3-D (batch, rows, cols) operands of one bmm. A side that is
            // the transpose of row-major memory (k.transpose(-2, -1)) is copied in that memory's
            // order and handed to the BLAS transposed, as at::matmul would; the copies go on the
            // pool (see poolCopy). Same products, same BLAS, so the same results.
            std::vector<int64_t> batch = at::infer_size(a.sizes().slice(0, a.dim() - 2), rhs.sizes().slice(0, rhs.dim() - 2));
            int64_t nb = c10::multiply_integers(batch);
            auto as3d = [&](const at::Tensor& t) {
                std::vector<int64_t> full = batch;
                full.push_back(t.size(-2));
                full.push_back(t.size(-1));
                at::Tensor e = t.expand(full);
                bool transposed = e.stride(-2) == 1 && e.stride(-1) != 1 && e.size(-1) > 1;
                at::Tensor m = rowMajor(transposed ? e.transpose(-2, -1) : e);
                m = m.view({nb, m.size(-2), m.size(-1)});
                return transposed ? m.transpose(1, 2) : m;
            };
            at::Tensor a3 = as3d(a), b3 = as3d(rhs);
            at::Tensor out = BlockPool::get().tensor({nb, a3.size(1), b3.size(2)}, at::kFloat);
            if (out.numel() != c10::multiply_integers(outSizes)) throw Mismatch{};
            at::bmm_out(out, a3, b3);
            bufs[n.id] = out.view(outSizes);
        } else {
            at::Tensor r = at::matmul(a, rhs);
            if (!r.is_contiguous()) r = r.contiguous();
            bufs[n.id] = r;
            if (r.sizes() != at::IntArrayRef(outSizes)) throw Mismatch{};
        }
        // the epilogue reads whole rows of the product, in one launch over all of them
        if (epilogueKernel >= 0) runKernel(size_t(epilogueKernel));
    }

    void runFallback(const Node& n) {
        int gn = n.fromGraphNodes[0];
        if (n.itemOf >= 0) { // an item of the tuple its fallback returned (lower::Node::itemOf)
            if (!haveValue[gn] || !env[gn].is(script::OK::Tuple)) throw Mismatch{};
            const auto& items = env[gn].as<script::TupleObj>()->items;
            if (size_t(n.item) >= items.size() || !items[n.item].isTensor()) throw Mismatch{};
            const at::Tensor& t = script::tensorOf(items[n.item]);
            bool ok;
            if (t.sizes() != at::IntArrayRef(sizes(n.shape)) || dtypeOf(t.scalar_type(), ok) != n.dtype || !ok) throw Mismatch{};
            bufs[n.id] = rowMajor(t);
            return;
        }
        const capture::OpNode& op = g.nodes[gn];
        CallArgs ca;
        for (auto& a : op.pos) ca.pos.push_back(instantiate(a));
        for (auto& [k, a] : op.kw) ca.kw.emplace_back(k, instantiate(a));
        env[gn] = op.invoke(in, ca);
        haveValue[gn] = 1;
        if (!n.shape.empty() || (env[gn].isTensor() && script::tensorOf(env[gn]).dim() == 0 && c.lowered.info[gn].value.kind == LoweredValue::Buffer)) {
            if (!env[gn].isTensor()) throw Mismatch{};
            at::Tensor t = script::tensorOf(env[gn]);
            if (t.sizes() != at::IntArrayRef(sizes(n.shape))) throw Mismatch{};
            bufs[n.id] = rowMajor(t);
        }
    }

    void go() {
        const Program& p = c.lowered.program;
        bufs.assign(p.nodes.size(), at::Tensor());
        haveValue.assign(g.nodes.size(), 0);
        for (size_t i = 0; i < g.nodes.size(); ++i)
            if (g.nodes[i].placeholder) haveValue[i] = 1;
        bindInputs();
        checkIndices(true);
        std::set<int> done;
        events::Log& events = capture::session(in).events;
        events::Log* log = events.at(events::Level::Kernels) ? &events : nullptr;
        for (int unit : c.order) {
            if (unit >= 0) {
                if (done.count(unit)) continue;
                size_t k = c.kernelOfGroup.at(unit);
                if (!log) {
                    runKernel(k);
                    continue;
                }
                events::Ns t0 = events::now();
                runKernel(k);
                // the graph is named by its Compiled's address (a number: no allocation per launch)
                log->span("kernels", c.kernels[k].name, events::Category::Kernel, t0, events::now() - t0, events::KernelFacts{c.compileId, int(k), -1, -1});
                continue;
            }
            const Node& n = p.nodes[-1 - unit];
            if (log) {
                events::Ns t0 = events::now();
                int epi = runNode(n, done);
                log->span("kernels", n.callee.empty() ? "node " + std::to_string(n.id) : n.callee,
                          n.kind == NodeKind::Extern ? events::Category::Extern : events::Category::Fallback, t0, events::now() - t0,
                          events::KernelFacts{c.compileId, -1, n.id, epi});
                continue;
            }
            runNode(n, done);
        }
        checkIndices(false);
        for (size_t i = 0; i < g.nodes.size(); ++i)
            if (c.lowered.info[i].needsValue && !haveValue[i]) valueOf(int(i));
    }

    // An extern (with its epilogue kernel, returned; -1 when none) or a fallback op.
    int runNode(const Node& n, std::set<int>& done) {
        const Program& p = c.lowered.program;
        {
            if (n.kind == NodeKind::Extern) {
                int epi = -1;
                for (auto& gr : c.schedule.groups)
                    if (gr.alive && gr.epilogueOf == n.id) {
                        // every other input of the epilogue must be ready
                        bool ready = true;
                        for (int m : gr.nodes)
                            for (int d : c.deps[m])
                                if (d != n.id && c.schedule.groupOf[d] != gr.id && !bufs[d].defined() && p.nodes[d].kind != NodeKind::Input) ready = false;
                        if (ready) {
                            epi = int(c.kernelOfGroup.at(gr.id));
                            done.insert(gr.id);
                        }
                    }
                runExtern(n, epi);
                return epi;
            } else {
                runFallback(n);
            }
        }
        return -1;
    }
};

// The backward of a compiled forward: recomputes the graph eagerly from the inputs it saved and
// differentiates it (activation-checkpoint style), so gradients are eager's.
struct CompiledFunctionBackward : torch::autograd::Node {
    script::Interp* in = nullptr;
    const capture::CapturedGraph* g = nullptr;
    std::vector<Value> env;          // the placeholders' values at the call
    std::vector<int> inputNodes;     // tensor placeholders, in next-edge order
    std::vector<at::Tensor> inputs;
    std::vector<int> outputNodes;    // tensor graph outputs, in input-metadata order

    std::string name() const override { return "CompiledFunctionBackward"; }
    torch::autograd::variable_list apply(torch::autograd::variable_list&& grads) override {
        at::AutoGradMode enable(true);
        std::vector<Value> e = env;
        std::vector<at::Tensor> leaves;
        for (size_t i = 0; i < inputNodes.size(); ++i) {
            at::Tensor t = inputs[i].detach().requires_grad_(inputs[i].requires_grad());
            leaves.push_back(t);
            e[inputNodes[i]] = script::wrap(t);
        }
        runOpByOp(*in, *g, e);
        std::vector<at::Tensor> outs, gouts, wrt;
        std::vector<size_t> which;
        for (size_t i = 0; i < outputNodes.size(); ++i) {
            at::Tensor o = script::tensorOf(e[outputNodes[i]]);
            if (!o.requires_grad() || i >= grads.size() || !grads[i].defined()) continue;
            outs.push_back(o);
            gouts.push_back(grads[i]);
        }
        for (size_t i = 0; i < leaves.size(); ++i)
            if (leaves[i].requires_grad()) { wrt.push_back(leaves[i]); which.push_back(i); }
        torch::autograd::variable_list result(leaves.size());
        if (!outs.empty() && !wrt.empty()) {
            auto gs = torch::autograd::grad(outs, wrt, gouts, /*retain_graph=*/false, /*create_graph=*/false, /*allow_unused=*/true);
            for (size_t j = 0; j < which.size(); ++j) result[which[j]] = gs[j];
        }
        return result;
    }
};

// Runs the compiled forward without grad, then attaches a CompiledFunctionBackward to its
// tensor outputs. False when the graph's outputs cannot carry it (an output that is an input
// or a view of one, or a non-tensor output other than constants).
bool runWithGrad(script::Interp& in, const capture::CapturedGraph& g, Compiled& c, std::vector<Value>& env) {
    auto node = std::make_shared<CompiledFunctionBackward>();
    node->in = &in;
    node->g = &g;
    std::set<int> outs;
    for (auto& o : g.outputs) {
        if (o.kind != capture::ArgT::Ref || o.index >= 0) return false;
        const capture::OpNode& n = g.nodes[o.node];
        if (n.placeholder || c.lowered.info[o.node].viewOp) return false;
        outs.insert(o.node);
    }
    for (size_t i = 0; i < g.nodes.size(); ++i)
        if (g.nodes[i].placeholder) {
            node->env.push_back(env[i]);
            if (env[i].isTensor()) {
                node->inputNodes.push_back(int(i));
                node->inputs.push_back(script::tensorOf(env[i]));
            }
        } else {
            node->env.push_back(Value());
        }
    {
        at::NoGradGuard ng;
        Run r{in, g, c, env};
        r.go();
    }
    for (int o : outs)
        if (!env[o].isTensor()) return false;
    node->set_next_edges(torch::autograd::collect_next_edges(node->inputs));
    for (int o : outs) {
        at::Tensor t = script::tensorOf(env[o]);
        if (!at::isFloatingType(t.scalar_type())) continue;
        node->outputNodes.push_back(o);
        torch::autograd::create_gradient_edge(t, node);
    }
    return true;
}

} // namespace

bool Compiled::execute(script::Interp& in, const capture::CapturedGraph& g, std::vector<Value>& env) {
    Compiled& c = *this;
    if (!c.ok) return false;
    std::vector<Value> placeholders = env;
    try {
        bool needGrad = false;
        if (at::GradMode::is_enabled())
            for (size_t i = 0; i < g.nodes.size(); ++i)
                if (g.nodes[i].placeholder && env[i].isTensor() && script::tensorOf(env[i]).requires_grad()) needGrad = true;
        if (!needGrad) {
            Run r{in, g, c, env};
            r.go();
        } else if (runTraining(in, g, c, env)) {
        } else if (!c.recomputable || !runWithGrad(in, g, c, env)) {
            env = placeholders;
            ++c.fallbacks;
            return false;
        }
        ++c.calls;
        return true;
    } catch (Run::Mismatch&) {
    } catch (std::exception&) {
    }
    env = placeholders;
    ++c.fallbacks;
    return false;
}

} // namespace fl::runtime
