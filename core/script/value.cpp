#include "core/script/value.h"

#include <cmath>
#include <cstring>

#include "core/script/coroutine.h"
#include "core/script/interp.h"

namespace fl::script {

const std::string& strOf(const Value& v) { return v.as<StrObj>()->s; }

namespace {
thread_local int keyDepth = 0;
struct KeyDepth {
    // deep nesting stops by count, and on a generator's small stack by the stack it has left
    KeyDepth() { if (++keyDepth > 10000 || Coroutine::stackLeft() < (size_t(64) << 10)) { keyDepth = 0; throw NestingTooDeep{}; } }
    ~KeyDepth() { if (keyDepth > 0) --keyDepth; }
};

thread_local int releaseDepth = 0;
thread_local std::vector<Value>* releaseQueue = nullptr;
} // namespace

void releaseChildren(std::vector<Value>& items) {
    if (items.empty()) return;
    if (releaseDepth > 64) {
        // Deep: defer to the outermost releaser instead of recursing further.
        for (auto& v : items) if (v.isObj()) releaseQueue->push_back(std::move(v));
        items.clear();
        return;
    }
    std::vector<Value> queue;
    bool outermost = releaseDepth == 0;
    if (outermost) releaseQueue = &queue;
    ++releaseDepth;
    items.clear();
    if (outermost) {
        while (!queue.empty()) {
            Value v = std::move(queue.back());
            queue.pop_back();
            v = Value(); // may push more children onto the queue
        }
        releaseQueue = nullptr;
    }
    --releaseDepth;
}

DictObj::~DictObj() {
    std::vector<Value> children;
    for (auto& e : map.entries()) {
        if (e.key.isObj()) children.push_back(std::move(e.key));
        if (e.val.isObj()) children.push_back(std::move(e.val));
    }
    map.clear();
    releaseChildren(children);
}

// ---------------------------------------------------------------- Python's hash()
namespace {
constexpr uint64_t kHashModulus = (uint64_t(1) << 61) - 1; // a Mersenne prime: 2**61 = 1 modulo it

int64_t signedHash(uint64_t magnitude, bool negative) {
    int64_t h = negative ? -int64_t(magnitude) : int64_t(magnitude);
    return h == -1 ? -2 : h; // -1 means "error" to CPython's C API, so no hash is -1
}

int64_t hashInt(int64_t v) {
    uint64_t magnitude = v < 0 ? uint64_t(0) - uint64_t(v) : uint64_t(v);
    return signedHash(magnitude % kHashModulus, v < 0);
}

// A finite double is M * 2**E with M a 53-bit integer; modulo 2**61 - 1, 2**E is 2**(E mod 61), so
// the hash is M shifted left by E mod 61, reduced: the same as the equal integer's or fraction's.
int64_t hashFloat(double x) {
    if (std::isnan(x)) return 0;
    if (std::isinf(x)) return x > 0 ? 314159 : -314159;
    int e = 0;
    double m = std::frexp(std::fabs(x), &e); // |x| = m * 2**e, 0.5 <= m < 1
    uint64_t mantissa = uint64_t(std::ldexp(m, 53));
    int shift = ((e - 53) % 61 + 61) % 61;
    uint64_t h = uint64_t(((unsigned __int128)mantissa << shift) % kHashModulus);
    return signedHash(h, x < 0);
}

// Tuples mix their items' hashes the way CPython 3.8+ does (xxHash's 64-bit round), so a tuple of
// numbers hashes as it does there.
int64_t hashTuple(const std::vector<Value>& items) {
    constexpr uint64_t kPrime1 = 11400714785074694791ULL, kPrime2 = 14029467366897019727ULL, kPrime5 = 2870177450012600261ULL;
    uint64_t acc = kPrime5;
    for (const Value& item : items) {
        acc += uint64_t(pyHash(item)) * kPrime2;
        acc = (acc << 31) | (acc >> 33);
        acc *= kPrime1;
    }
    acc += uint64_t(items.size()) ^ (kPrime5 ^ 3527539ULL);
    return acc == ~uint64_t(0) ? 1546275796 : int64_t(acc);
}

int64_t identityHash(const void* p) {
    uint64_t a = uint64_t(reinterpret_cast<uintptr_t>(p));
    return int64_t((a >> 4) | (a << 60)); // objects are aligned: the low bits say nothing
}

thread_local Interp* tlKeyInterp = nullptr;

// The script class's __eq__ / __hash__ of an instance key, when it has one of its own.
const Value* scriptDunder(const Value& v, const char* name) {
    if (!v.is(OK::Instance)) return nullptr;
    const Value* m = v.as<InstanceObj>()->cls->lookup(name);
    return m && (m->isNone() || m->is(OK::Function) || m->is(OK::Builtin)) ? m : nullptr;
}

int64_t hashInstance(const Value& v) {
    const Value* h = scriptDunder(v, "__hash__");
    if (!h) return identityHash(v.obj());
    if (h->isNone()) throw UnhashableError{v.as<InstanceObj>()->cls->name};
    Interp* in = tlKeyInterp;
    if (!in) return identityHash(v.obj());
    Value r = in->call(*h, {v});
    if (!r.isIntLike() && !isBigInt(r)) in->raiseType("__hash__ method should return an integer");
    // kept as returned (so returning hash(y) hashes as y); past 64 bits, the int's own hash
    if (isBigInt(r)) return pyHash(r);
    return r.i() == -1 ? -2 : r.i();
}
} // namespace

void setKeyInterp(Interp* in) { tlKeyInterp = in; }
Interp* keyInterp() { return tlKeyInterp; }

int64_t pyHash(const Value& v) {
    switch (v.type()) {
    case Value::T::None: return 0x1234567;
    case Value::T::Missing: return 0;
    case Value::T::Bool:
    case Value::T::Int: return hashInt(v.i());
    case Value::T::Float: return hashFloat(v.f());
    case Value::T::Obj: break;
    }
    KeyDepth guard;
    switch (v.obj()->kind) {
    case OK::BigInt: {
        const BigInt& b = v.as<BigIntObj>()->v;
        return signedHash(b.magnitudeMod(kHashModulus), b.negative());
    }
    case OK::Str: {
        int64_t h = int64_t(std::hash<std::string>()(strOf(v)));
        return h == -1 ? -2 : h;
    }
    case OK::Tuple: return hashTuple(v.as<TupleObj>()->items);
    case OK::List: throw UnhashableError{"list"};
    case OK::Dict: throw UnhashableError{"dict"};
    case OK::Set: throw UnhashableError{"set"};
    case OK::Instance: return hashInstance(v);
    // equal by value (keyEquals), so hashed by value: torch.device('cpu') made twice is one key
    case OK::Dtype: return hashInt(v.as<DtypeObj>()->scalarType);
    case OK::Device: return int64_t(std::hash<std::string>()(v.as<DeviceObj>()->type)) ^ hashInt(v.as<DeviceObj>()->index);
    default: return identityHash(v.obj());
    }
}

bool keyEquals(const Value& a, const Value& b) {
    if (a.isNumber() && b.isNumber()) {
        if (a.isFloat() || b.isFloat()) return a.num() == b.num();
        return a.i() == b.i();
    }
    if ((isBigInt(a) && b.isFloat()) || (a.isFloat() && isBigInt(b))) {
        const BigInt& big = isBigInt(a) ? a.as<BigIntObj>()->v : b.as<BigIntObj>()->v;
        BigInt other;
        return BigInt::fromDouble(a.isFloat() ? a.f() : b.f(), other) && BigInt::compare(big, other) == 0;
    }
    if (a.isObj() && b.isObj() && a.obj() == b.obj()) return true;
    if (tlKeyInterp && (scriptDunder(a, "__eq__") || scriptDunder(b, "__eq__"))) return tlKeyInterp->equals(a, b);
    if (a.type() != b.type()) return false;
    if (!a.isObj()) return true; // None == None
    if (a.obj()->kind != b.obj()->kind) return false;
    KeyDepth guard;
    switch (a.obj()->kind) {
    case OK::Str: return strOf(a) == strOf(b);
    case OK::BigInt: return BigInt::compare(a.as<BigIntObj>()->v, b.as<BigIntObj>()->v) == 0;
    case OK::Tuple: {
        const auto& x = a.as<TupleObj>()->items;
        const auto& y = b.as<TupleObj>()->items;
        if (x.size() != y.size()) return false;
        for (size_t i = 0; i < x.size(); ++i)
            if (!keyEquals(x[i], y[i])) return false;
        return true;
    }
    case OK::Dtype: return a.as<DtypeObj>()->scalarType == b.as<DtypeObj>()->scalarType;
    case OK::Device: return a.as<DeviceObj>()->type == b.as<DeviceObj>()->type && a.as<DeviceObj>()->index == b.as<DeviceObj>()->index;
    default: return false;
    }
}

// A script's __eq__ may change the map under the lookup. The candidates are taken first (indices
// into entries_ stay valid while entries are only added); a comparison's answer counts while its
// entry still holds the key compared, and the lookup starts again when it does not, or when the
// entries were compacted meanwhile (CPython restarts a dict lookup on the same grounds).
size_t ValueMap::indexOf(const Value& key, size_t h) {
    for (bool again = true; again;) {
        again = false;
        size_t compactions = compactions_;
        auto range = index_.equal_range(h);
        size_t fixed[8], count = 0;
        std::vector<size_t> more;
        for (auto it = range.first; it != range.second; ++it) {
            if (count < 8) fixed[count++] = it->second;
            else more.push_back(it->second);
        }
        for (size_t k = 0; k < count + more.size() && !again; ++k) {
            size_t i = k < count ? fixed[k] : more[k - count];
            if (!entries_[i].live) continue;
            Value stored = entries_[i].key; // held: the comparison may drop the entry
            bool equal = keyEquals(stored, key);
            if (compactions != compactions_) { again = true; break; }
            const Value& now = entries_[i].key;
            bool same = entries_[i].live && now.type() == stored.type() && (now.isObj() ? now.obj() == stored.obj() : true);
            if (!same) again = true;
            else if (equal) return i;
        }
    }
    return kAbsent;
}

Value* ValueMap::find(const Value& key) {
    size_t i = indexOf(key, hashValue(key));
    return i == kAbsent ? nullptr : &entries_[i].val;
}

void ValueMap::set(const Value& key, Value val) {
    size_t h = hashValue(key); // once: a script's __hash__ runs once per store, as in CPython
    if (size_t i = indexOf(key, h); i != kAbsent) { entries_[i].val = std::move(val); return; }
    index_.emplace(h, entries_.size());
    entries_.push_back({key, std::move(val), true, h});
    ++live_;
    ++version_;
}

bool ValueMap::erase(const Value& key) {
    size_t i = indexOf(key, hashValue(key));
    if (i == kAbsent) return false;
    Entry& e = entries_[i];
    auto range = index_.equal_range(e.hash);
    for (auto it = range.first; it != range.second; ++it)
        if (it->second == i) { index_.erase(it); break; }
    e.live = false;
    e.key = Value();
    e.val = Value();
    --live_;
    ++version_;
    if (entries_.size() > 32 && live_ * 2 < entries_.size()) compact();
    return true;
}

void ValueMap::compact() {
    ++compactions_;
    std::vector<Entry> kept;
    kept.reserve(live_);
    for (auto& e : entries_)
        if (e.live) kept.push_back(std::move(e));
    entries_ = std::move(kept);
    index_.clear();
    for (size_t i = 0; i < entries_.size(); ++i) index_.emplace(entries_[i].hash, i);
}

const Value* ClassObj::lookup(const std::string& n) const {
    if (!mro.empty()) {
        for (const ClassObj* c : mro) {
            auto it = c->attrs.find(n);
            if (it != c->attrs.end()) return &it->second;
        }
        return nullptr;
    }
    for (const ClassObj* c = this; c; c = c->base.get()) {
        auto it = c->attrs.find(n);
        if (it != c->attrs.end()) return &it->second;
    }
    return nullptr;
}

std::vector<const ClassObj*> ClassObj::order() const {
    std::vector<const ClassObj*> out;
    if (!mro.empty()) {
        out.assign(mro.begin(), mro.end());
        return out;
    }
    for (const ClassObj* c = this; c; c = c->base.get()) out.push_back(c);
    return out;
}

const Value* ClassObj::lookupAfter(const ClassObj* after, const std::string& n) const {
    std::vector<const ClassObj*> o = order();
    size_t i = 0;
    while (i < o.size() && o[i] != after) ++i;
    for (++i; i < o.size(); ++i) {
        auto it = o[i]->attrs.find(n);
        if (it != o[i]->attrs.end()) return &it->second;
    }
    return nullptr;
}

bool ClassObj::isSubclassOf(const ClassObj* other) const {
    if (!mro.empty()) {
        for (const ClassObj* c : mro)
            if (c == other) return true;
        return false;
    }
    for (const ClassObj* c = this; c; c = c->base.get())
        if (c == other) return true;
    return false;
}

} // namespace fl::script
