#include "core/script/value.h"

#include <cmath>
#include <cstring>

#include "core/script/coroutine.h"
#include "core/script/interp.h"

namespace fl::script {

const std::string& strOf(const Value& v) { return v.as<StrObj>()->s; }

namespace {
size_t mix(size_t h, size_t v) { return h ^ (v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2)); }

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

// Python's rule: equal numbers hash equal (1 == 1.0 == True), so ints and integral floats share one.
size_t hashValue(const Value& v) {
    switch (v.type()) {
    case Value::T::None: return 0x1234567;
    case Value::T::Missing: return 0;
    case Value::T::Bool:
    case Value::T::Int: return std::hash<int64_t>()(v.i());
    case Value::T::Float: {
        double f = v.f();
        if (std::isfinite(f) && f == std::floor(f) && std::fabs(f) < 9.2e18) return std::hash<int64_t>()(int64_t(f));
        return std::hash<double>()(f);
    }
    case Value::T::Obj: break;
    }
    KeyDepth guard;
    switch (v.obj()->kind) {
    case OK::BigInt: return v.as<BigIntObj>()->v.hash();
    case OK::Str: return std::hash<std::string>()(strOf(v));
    case OK::Tuple: {
        size_t h = 0x345678;
        for (const auto& e : v.as<TupleObj>()->items) h = mix(h, hashValue(e));
        return h;
    }
    case OK::List: throw UnhashableError{"list"};
    case OK::Dict: throw UnhashableError{"dict"};
    case OK::Set: throw UnhashableError{"set"};
    default: return std::hash<const void*>()(v.obj());
    }
}

bool keyEquals(const Value& a, const Value& b) {
    if (a.isNumber() && b.isNumber()) {
        if (a.isFloat() || b.isFloat()) return a.num() == b.num();
        return a.i() == b.i();
    }
    if (a.type() != b.type()) return false;
    if (!a.isObj()) return true; // None == None
    if (a.obj() == b.obj()) return true;
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

Value* ValueMap::find(const Value& key) {
    size_t h = hashValue(key);
    auto range = index_.equal_range(h);
    for (auto it = range.first; it != range.second; ++it) {
        Entry& e = entries_[it->second];
        if (e.live && keyEquals(e.key, key)) return &e.val;
    }
    return nullptr;
}

void ValueMap::set(const Value& key, Value val) {
    if (Value* v = find(key)) { *v = std::move(val); return; }
    size_t h = hashValue(key);
    index_.emplace(h, entries_.size());
    entries_.push_back({key, std::move(val), true});
    ++live_;
    ++version_;
}

bool ValueMap::erase(const Value& key) {
    size_t h = hashValue(key);
    auto range = index_.equal_range(h);
    for (auto it = range.first; it != range.second; ++it) {
        Entry& e = entries_[it->second];
        if (e.live && keyEquals(e.key, key)) {
            e.live = false;
            e.key = Value();
            e.val = Value();
            index_.erase(it);
            --live_;
            ++version_;
            if (entries_.size() > 32 && live_ * 2 < entries_.size()) compact();
            return true;
        }
    }
    return false;
}

void ValueMap::compact() {
    std::vector<Entry> kept;
    kept.reserve(live_);
    for (auto& e : entries_)
        if (e.live) kept.push_back(std::move(e));
    entries_ = std::move(kept);
    index_.clear();
    for (size_t i = 0; i < entries_.size(); ++i) index_.emplace(hashValue(entries_[i].key), i);
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
