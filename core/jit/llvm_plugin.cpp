// libfuselab_llvmjit.so: in-process Clang + LLVM ORC behind the C ABI of llvm_plugin_api.h.
// Loaded by jit.cpp with dlopen only when a compile misses every cache, so processes that never
// compile never map LLVM. One global mutex serializes all work: Clang, the cached target
// machines and the LLJIT instance are used by one thread at a time.
//
// Pipeline per unit: clang driver flags -> cc1 flags (driver run once per flag set, cached) ->
// CompilerInstance + EmitLLVMOnlyAction on the in-memory source (optimized at -O<n>) -> textual
// IR kept for display -> our TargetMachine emits a PIC object (kept: jit.cpp links it into the
// disk cache's .so) -> the object is added to a fresh JITDylib of the shared LLJIT -> lookups.

#include "llvm_plugin_api.h"

#include <clang/Basic/Diagnostic.h>
#include <clang/Basic/DiagnosticOptions.h>
#include <clang/Basic/Version.h>
#include <clang/CodeGen/CodeGenAction.h>
#include <clang/Driver/Compilation.h>
#include <clang/Driver/Driver.h>
#include <clang/Driver/Job.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/CompilerInvocation.h>
#include <clang/Frontend/MultiplexConsumer.h>
#include <clang/AST/ASTConsumer.h>
#include <clang/Frontend/TextDiagnosticPrinter.h>
#include <clang/Lex/PreprocessorOptions.h>
#include <llvm/AsmParser/Parser.h>
#include <llvm/ExecutionEngine/Orc/CompileUtils.h>
#include <llvm/ExecutionEngine/Orc/ExecutionUtils.h>
#include <llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h>
#include <llvm/ExecutionEngine/Orc/LLJIT.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/LegacyPassManager.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/Host.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/SourceMgr.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Target/TargetMachine.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

// The name the in-memory source is compiled under (shows up in diagnostics).
constexpr const char* kInputName = "kernel.cpp";

double msSince(Clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

char* copyString(const std::string& s) {
    char* p = static_cast<char*>(std::malloc(s.size() + 1));
    if (p) std::memcpy(p, s.c_str(), s.size() + 1);
    return p;
}

std::string errorText(llvm::Error e) { return llvm::toString(std::move(e)); }

llvm::CodeGenOpt::Level codegenLevel(int optLevel) {
    if (optLevel <= 0) return llvm::CodeGenOpt::None;
    if (optLevel == 1) return llvm::CodeGenOpt::Less;
    if (optLevel == 2) return llvm::CodeGenOpt::Default;
    return llvm::CodeGenOpt::Aggressive;
}

// A host JITTargetMachineBuilder: CPU name and features detected from this machine (what
// -march=native means), PIC so the object can also be linked into a shared object.
llvm::Expected<llvm::orc::JITTargetMachineBuilder> hostBuilder(int optLevel) {
    auto jtmb = llvm::orc::JITTargetMachineBuilder::detectHost();
    if (!jtmb) return jtmb.takeError();
    jtmb->setCodeGenOptLevel(codegenLevel(optLevel))
        .setRelocationModel(llvm::Reloc::PIC_)
        .setCodeModel(llvm::CodeModel::Small);
    jtmb->getOptions().AllowFPOpFusion = llvm::FPOpFusion::Strict; // -ffp-contract=off: only explicit fmas
    return jtmb;
}

// One unit's code: a JITDylib of its own, so units never clash on symbol names and can be freed.
struct JitModule {
    llvm::orc::JITDylib* dylib = nullptr;
    std::map<std::string, void*> symbols; // the requested ones, resolved at compile time
};

// Everything below is guarded by mutex(). Intentionally leaked: kernels may still be released
// from other libraries' static destructors at exit, after ours would have run.
struct Globals {
    std::unique_ptr<llvm::orc::LLJIT> jit;
    std::map<int, std::unique_ptr<llvm::TargetMachine>> machines;     // by optLevel
    std::map<std::vector<std::string>, std::vector<std::string>> cc1; // driver args -> cc1 args
    unsigned nextDylib = 0;
};

// Set when this library's static destructors run at exit. Those run before libLLVM's (which was
// initialized first), so from then on releases are skipped: a KernelLib destroyed late at exit
// (say, held by another static) must not call into a half-destroyed LLVM.
std::atomic<bool> exiting{false};
struct ExitWatch {
    ~ExitWatch() { exiting = true; }
} exitWatch;

std::mutex& mutex() {
    static auto* m = new std::mutex;
    return *m;
}

Globals& globals() {
    static auto* g = new Globals;
    return *g;
}

void initializeLLVM() {
    static std::once_flag once;
    std::call_once(once, [] {
        // Registering the native target also lets clang's optimizer see the real target
        // (TargetTransformInfo): without it the loop vectorizer has no cost model.
        llvm::InitializeNativeTarget();
        llvm::InitializeNativeTargetAsmPrinter();
        llvm::InitializeNativeTargetAsmParser();
    });
}

llvm::Expected<llvm::TargetMachine&> targetMachine(int optLevel) {
    auto& slot = globals().machines[optLevel];
    if (!slot) {
        auto jtmb = hostBuilder(optLevel);
        if (!jtmb) return jtmb.takeError();
        auto tm = jtmb->createTargetMachine();
        if (!tm) return tm.takeError();
        slot = std::move(*tm);
    }
    return *slot;
}

llvm::Expected<llvm::orc::LLJIT&> lljit() {
    auto& g = globals();
    if (!g.jit) {
        auto jtmb = hostBuilder(3);
        if (!jtmb) return jtmb.takeError();
        auto jit = llvm::orc::LLJITBuilder().setJITTargetMachineBuilder(std::move(*jtmb)).create();
        if (!jit) return jit.takeError();
        // The main JITDylib resolves against the process (memset, memcpy, libm); every unit's
        // own JITDylib links against it.
        auto process = llvm::orc::DynamicLibrarySearchGenerator::GetForCurrentProcess(
            (*jit)->getDataLayout().getGlobalPrefix());
        if (!process) return process.takeError();
        (*jit)->getMainJITDylib().addGenerator(std::move(*process));
        g.jit = std::move(*jit);
    }
    return *g.jit;
}

// Diagnostics rendered as plain text into a string.
struct Diagnostics {
    std::string text;
    llvm::raw_string_ostream stream{text};
    llvm::IntrusiveRefCntPtr<clang::DiagnosticOptions> options{new clang::DiagnosticOptions};
    llvm::IntrusiveRefCntPtr<clang::DiagnosticsEngine> engine{new clang::DiagnosticsEngine(
        new clang::DiagnosticIDs, options, new clang::TextDiagnosticPrinter(stream, options.get()),
        /*ShouldOwnClient=*/true)};

    std::string take(const char* fallback) {
        stream.flush();
        return text.empty() ? fallback : text;
    }
};

// The cc1 arguments the clang driver derives from driverArgs (-march=native becomes -target-cpu
// and -target-feature, -fassociative-math becomes -mreassociate, ...). Empty on failure.
const std::vector<std::string>& cc1Args(const std::vector<std::string>& driverArgs, Diagnostics& diags) {
    auto& cached = globals().cc1[driverArgs];
    if (!cached.empty()) return cached;
    std::vector<const char*> argv{"clang"};
    for (const auto& a : driverArgs) argv.push_back(a.c_str());
    for (const char* a : {"-nostdinc", "-c", "-x", "c++", kInputName}) argv.push_back(a);

    clang::driver::Driver driver("clang", llvm::sys::getDefaultTargetTriple(), *diags.engine);
    driver.setCheckInputsExist(false); // the source only exists in memory
    std::unique_ptr<clang::driver::Compilation> compilation(driver.BuildCompilation(argv));
    if (!compilation || compilation->containsError()) return cached;
    const auto& jobs = compilation->getJobs();
    if (jobs.size() != 1 || !llvm::isa<clang::driver::Command>(*jobs.begin())) return cached;
    const auto& args = llvm::cast<clang::driver::Command>(*jobs.begin()).getArguments();
    for (const char* a : args)
        if (std::strcmp(a, "-cc1") != 0) cached.emplace_back(a);
    return cached;
}

// Marks the moment parsing and IR generation end: clang's backend consumer runs the optimisation
// pipeline in HandleTranslationUnit, right after this consumer's (MultiplexConsumer keeps order).
struct ParseEndMark : clang::ASTConsumer {
    Clock::time_point* at;
    explicit ParseEndMark(Clock::time_point* t) : at(t) {}
    void HandleTranslationUnit(clang::ASTContext&) override { *at = Clock::now(); }
};

class TimedEmitLLVMOnly : public clang::EmitLLVMOnlyAction {
public:
    TimedEmitLLVMOnly(llvm::LLVMContext* context, Clock::time_point* parseEnd) : EmitLLVMOnlyAction(context), parseEnd_(parseEnd) {}

protected:
    std::unique_ptr<clang::ASTConsumer> CreateASTConsumer(clang::CompilerInstance& ci, llvm::StringRef file) override {
        auto backend = EmitLLVMOnlyAction::CreateASTConsumer(ci, file);
        if (!backend) return backend;
        std::vector<std::unique_ptr<clang::ASTConsumer>> consumers;
        consumers.push_back(std::make_unique<ParseEndMark>(parseEnd_));
        consumers.push_back(std::move(backend));
        return std::make_unique<clang::MultiplexConsumer>(std::move(consumers));
    }

private:
    Clock::time_point* parseEnd_;
};

// C++ source -> optimized module, or null with diagnostics in diags. *parseEnd: when parsing and
// IR generation ended (the optimisation pipeline runs after it).
std::unique_ptr<llvm::Module> frontend(const char* source, size_t size,
                                       const std::vector<std::string>& driverArgs,
                                       llvm::LLVMContext& context, Diagnostics& diags, Clock::time_point* parseEnd) {
    const auto& cc1 = cc1Args(driverArgs, diags);
    if (cc1.empty()) return nullptr;
    std::vector<const char*> argv;
    for (const auto& a : cc1) argv.push_back(a.c_str());

    auto invocation = std::make_shared<clang::CompilerInvocation>();
    if (!clang::CompilerInvocation::CreateFromArgs(*invocation, argv, *diags.engine)) return nullptr;
    invocation->getFrontendOpts().DisableFree = false; // the driver asks cc1 to leak; we live on
    invocation->getPreprocessorOpts().addRemappedFile(
        kInputName, llvm::MemoryBuffer::getMemBufferCopy(llvm::StringRef(source, size), kInputName).release());

    clang::CompilerInstance compiler;
    compiler.setInvocation(std::move(invocation));
    compiler.setDiagnostics(diags.engine.get());
    compiler.setVerboseOutputStream(diags.stream); // "1 error generated." joins the diagnostics, not stderr
    TimedEmitLLVMOnly action(&context, parseEnd);
    if (!compiler.ExecuteAction(action)) return nullptr;
    return action.takeModule();
}

void compileUnit(const char* source, size_t sourceSize, const char* const* driverArgs,
                 size_t driverArgCount, int optLevel, const char* const* symbols,
                 size_t symbolCount, FlLlvmJitResult* out) {
    const auto t0 = Clock::now();
    initializeLLVM();
    Diagnostics diags;
    const std::vector<std::string> args(driverArgs, driverArgs + driverArgCount);
    auto context = std::make_unique<llvm::LLVMContext>(); // one context per unit
    Clock::time_point parseEnd{};
    std::unique_ptr<llvm::Module> module = frontend(source, sourceSize, args, *context, diags, &parseEnd);
    if (!module) {
        out->error = copyString(diags.take("clang failed without diagnostics"));
        return;
    }
    std::string ir;
    llvm::raw_string_ostream irStream(ir);
    module->print(irStream, nullptr);
    irStream.flush();
    if (parseEnd == Clock::time_point{}) parseEnd = Clock::now(); // not reached: the backend consumer always runs
    out->frontendMs = std::chrono::duration<double, std::milli>(parseEnd - t0).count();
    out->optimizeMs = msSince(parseEnd);

    const auto t1 = Clock::now();
    auto tm = targetMachine(optLevel);
    if (!tm) {
        out->error = copyString(errorText(tm.takeError()));
        return;
    }
    llvm::orc::SimpleCompiler toObject(*tm);
    auto object = toObject(*module);
    if (!object) {
        out->error = copyString(errorText(object.takeError()));
        return;
    }
    const llvm::StringRef bytes = (*object)->getBuffer();
    out->codegenMs = msSince(t1);
    const auto t2 = Clock::now();
    auto jit = lljit();
    if (!jit) {
        out->error = copyString(errorText(jit.takeError()));
        return;
    }
    auto& session = jit->getExecutionSession();
    auto dylib = jit->createJITDylib("fuselab" + std::to_string(globals().nextDylib++));
    if (!dylib) {
        out->error = copyString(errorText(dylib.takeError()));
        return;
    }
    dylib->addToLinkOrder(jit->getMainJITDylib());
    auto unit = std::make_unique<JitModule>();
    unit->dylib = &*dylib;
    std::string error;
    if (auto e = jit->addObjectFile(*dylib, llvm::MemoryBuffer::getMemBufferCopy(bytes, kInputName)))
        error = errorText(std::move(e));
    // Looked up in the unit's own JITDylib only: a symbol the unit does not define must not
    // silently resolve to a process symbol of the same name.
    for (size_t i = 0; i < symbolCount && error.empty(); ++i) {
        auto address = jit->lookup(*dylib, symbols[i]);
        if (!address)
            error = "symbol '" + std::string(symbols[i]) + "' not found: " + errorText(address.takeError());
        else
            unit->symbols[symbols[i]] = address->toPtr<void*>();
    }
    if (!error.empty()) {
        llvm::consumeError(session.removeJITDylib(*dylib));
        out->error = copyString(error);
        return;
    }
    out->object = static_cast<char*>(std::malloc(bytes.size()));
    if (out->object) {
        std::memcpy(out->object, bytes.data(), bytes.size());
        out->objectSize = bytes.size();
    }
    out->ir = copyString(ir);
    out->loadMs = msSince(t2);
    out->module = unit.release();
}

// ---- the C entry points: never throw, never abort on bad input ----

void apiCompile(const char* source, size_t sourceSize, const char* const* driverArgs,
                size_t driverArgCount, int optLevel, const char* const* symbols,
                size_t symbolCount, FlLlvmJitResult* out) {
    *out = FlLlvmJitResult{};
    try {
        std::lock_guard lock(mutex());
        compileUnit(source, sourceSize, driverArgs, driverArgCount, optLevel, symbols, symbolCount, out);
    } catch (const std::exception& e) {
        out->error = copyString(std::string("llvm plugin: ") + e.what());
    } catch (...) {
        out->error = copyString("llvm plugin: unknown exception");
    }
}

void* apiLookup(void* module, const char* symbol) {
    try {
        std::lock_guard lock(mutex());
        auto* unit = static_cast<JitModule*>(module);
        if (auto it = unit->symbols.find(symbol); it != unit->symbols.end()) return it->second;
        auto address = globals().jit->lookup(*unit->dylib, symbol);
        if (!address) {
            llvm::consumeError(address.takeError());
            return nullptr;
        }
        return address->toPtr<void*>();
    } catch (...) {
        return nullptr;
    }
}

void apiReleaseModule(void* module) {
    if (exiting) return;
    try {
        std::lock_guard lock(mutex());
        std::unique_ptr<JitModule> unit(static_cast<JitModule*>(module));
        llvm::consumeError(globals().jit->getExecutionSession().removeJITDylib(*unit->dylib));
    } catch (...) {
    }
}

char* apiAssembly(const char* ir, size_t irSize, int optLevel, char** error) {
    *error = nullptr;
    try {
        std::lock_guard lock(mutex());
        initializeLLVM();
        llvm::LLVMContext context;
        llvm::SMDiagnostic parseError;
        auto module = llvm::parseAssemblyString(llvm::StringRef(ir, irSize), parseError, context);
        if (!module) {
            std::string text;
            llvm::raw_string_ostream stream(text);
            parseError.print("kernel.ll", stream);
            *error = copyString(stream.str());
            return nullptr;
        }
        auto tm = targetMachine(optLevel);
        if (!tm) {
            *error = copyString(errorText(tm.takeError()));
            return nullptr;
        }
        llvm::SmallString<0> text;
        llvm::raw_svector_ostream stream(text);
        llvm::legacy::PassManager passes;
        if (tm->addPassesToEmitFile(passes, stream, nullptr, llvm::CGFT_AssemblyFile)) {
            *error = copyString("the target cannot emit assembly");
            return nullptr;
        }
        passes.run(*module);
        return copyString(std::string(text.str()));
    } catch (const std::exception& e) {
        *error = copyString(std::string("llvm plugin: ") + e.what());
    } catch (...) {
        *error = copyString("llvm plugin: unknown exception");
    }
    return nullptr;
}

void apiRelease(void* memory) { std::free(memory); }

} // namespace

extern "C" __attribute__((visibility("default"))) const FlLlvmJitApi* fuselab_llvmjit_api(void) {
    static const FlLlvmJitApi api{FL_LLVMJIT_ABI_VERSION, CLANG_VERSION_STRING, apiCompile, apiLookup,
                                  apiReleaseModule, apiAssembly, apiRelease};
    return &api;
}
