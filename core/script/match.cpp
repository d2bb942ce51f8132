#include "core/script/match.h"

#include <algorithm>

#include "core/script/interp.h"
#include "core/script/pyformat.h"

namespace fl::script {

namespace {

uint8_t collectionFlags(const ClassObj* cls) {
    uint8_t flags = 0;
    for (const ClassObj* c : cls->order()) flags |= c->collectionFlags;
    return flags;
}

// What a sequence pattern takes: CPython's Py_TPFLAGS_SEQUENCE types (list, tuple, range, and
// classes marked so: deque, namedtuples), never str, dict or a dict view.
bool isSequence(const Value& v) {
    if (v.is(OK::List)) return v.as<ListObj>()->viewName == nullptr;
    if (v.is(OK::Tuple) || v.is(OK::Range)) return true;
    return v.is(OK::Instance) && (collectionFlags(v.as<InstanceObj>()->cls.get()) & kSequenceFlag);
}

bool isMapping(const Value& v) {
    if (v.is(OK::Dict)) return true;
    return v.is(OK::Instance) && (collectionFlags(v.as<InstanceObj>()->cls.get()) & kMappingFlag);
}

bool isWildcardPattern(const Pattern& p) {
    return p.kind == PatternKind::As && !static_cast<const AsPattern&>(p).pattern && static_cast<const AsPattern&>(p).name.empty();
}

bool isStarWildcard(const Pattern& p) {
    return p.kind == PatternKind::Star && static_cast<const StarPattern&>(p).name.empty();
}

} // namespace

void patternNames(const Pattern& p, std::vector<std::string>& out) {
    switch (p.kind) {
    case PatternKind::Value:
    case PatternKind::Singleton: return;
    case PatternKind::Star:
        if (!static_cast<const StarPattern&>(p).name.empty()) out.push_back(static_cast<const StarPattern&>(p).name);
        return;
    case PatternKind::As: {
        const auto& a = static_cast<const AsPattern&>(p);
        if (a.pattern) patternNames(*a.pattern, out);
        if (!a.name.empty()) out.push_back(a.name);
        return;
    }
    case PatternKind::Sequence:
        for (const auto& x : static_cast<const SequencePattern&>(p).patterns) patternNames(*x, out);
        return;
    case PatternKind::Mapping: {
        const auto& m = static_cast<const MappingPattern&>(p);
        for (const auto& x : m.patterns) patternNames(*x, out);
        if (!m.rest.empty()) out.push_back(m.rest);
        return;
    }
    case PatternKind::Class: {
        const auto& c = static_cast<const ClassPattern&>(p);
        for (const auto& x : c.patterns) patternNames(*x, out);
        for (const auto& x : c.kwdPatterns) patternNames(*x, out);
        return;
    }
    case PatternKind::Or: // every alternative binds the same names (the parser checked)
        if (!static_cast<const OrPattern&>(p).patterns.empty()) patternNames(*static_cast<const OrPattern&>(p).patterns[0], out);
        return;
    }
}

namespace {

class Matcher {
public:
    Matcher(Interp& in, const PatternEval& eval, PatternBindings& binds) : in_(in), eval_(eval), binds_(binds) {}

    bool match(const Pattern& p, const Value& subject) {
        // an error in a pattern points at its line, as CPython's tracebacks do
        if (!in_.frames().empty()) in_.frames().back().line = p.span.line;
        switch (p.kind) {
        case PatternKind::Value: {
            const Expr* x = static_cast<const ValuePattern&>(p).value.get();
            Value v = eval_(x);
            if (in_.tracer) in_.tracer->curExpr = x;
            return in_.truthy(in_.compare(CmpOpKind::Eq, subject, v));
        }
        case PatternKind::Singleton: {
            ConstKind k = static_cast<const SingletonPattern&>(p).value;
            if (k == ConstKind::None) return subject.isNone();
            return subject.isBool() && subject.b() == (k == ConstKind::True);
        }
        case PatternKind::Star: return true; // sequence() reads the items a star takes
        case PatternKind::As: {
            const auto& a = static_cast<const AsPattern&>(p);
            if (a.pattern && !match(*a.pattern, subject)) return false;
            if (!a.name.empty()) binds_.emplace_back(a.name, subject);
            return true;
        }
        case PatternKind::Sequence: return sequence(static_cast<const SequencePattern&>(p), subject);
        case PatternKind::Mapping: return mapping(static_cast<const MappingPattern&>(p), subject);
        case PatternKind::Class: return classPattern(static_cast<const ClassPattern&>(p), subject);
        case PatternKind::Or: return alternatives(static_cast<const OrPattern&>(p), subject);
        }
        return false;
    }

private:
    Interp& in_;
    const PatternEval& eval_;
    PatternBindings& binds_;

    // subject[i], told to the trace hooks as the subscript expression would tell them.
    Value item(const Value& subject, int64_t i) {
        Value key = Value::integer(i);
        Value r = in_.getItem(subject, key);
        if (in_.tracer) in_.tracer->onItem(subject, key, r);
        return r;
    }

    bool sequence(const SequencePattern& p, const Value& subject) {
        if (!isSequence(subject)) return false;
        const auto& ps = p.patterns;
        const int64_t size = int64_t(ps.size());
        int64_t star = -1;
        bool onlyWildcards = true;
        for (int64_t i = 0; i < size; ++i) {
            if (ps[i]->kind == PatternKind::Star) star = i;
            onlyWildcards = onlyWildcards && (isWildcardPattern(*ps[i]) || isStarWildcard(*ps[i]));
        }
        if (star < 0 || size > 1) {
            int64_t n = in_.len(subject);
            if (star < 0 ? n != size : n < size - 1) return false;
        }
        if (onlyWildcards) return true;
        if (star >= 0 && isStarWildcard(*ps[star])) {
            // [a, *_, b]: the items around the star are read by index, the middle not at all
            for (int64_t i = 0; i < size; ++i) {
                if (i == star || isWildcardPattern(*ps[i])) continue;
                if (!match(*ps[i], item(subject, i < star ? i : i - size))) return false;
            }
            return true;
        }
        std::vector<Value> items = in_.toVector(subject); // unpacked by iteration, as CPython does
        int64_t n = int64_t(items.size());
        if (star < 0 ? n != size : n < size - 1) return false;
        for (int64_t i = 0; i < size; ++i) {
            if (i == star) {
                auto from = items.begin() + star, to = items.end() - (size - 1 - star);
                binds_.emplace_back(static_cast<const StarPattern&>(*ps[i]).name, makeList(std::vector<Value>(from, to)));
                continue;
            }
            const Value& v = star >= 0 && i > star ? items[size_t(n - (size - i))] : items[size_t(i)];
            if (!match(*ps[i], v)) return false;
        }
        return true;
    }

    bool mapping(const MappingPattern& p, const Value& subject) {
        if (!isMapping(subject)) return false;
        size_t nkeys = p.keys.size();
        if (nkeys && in_.len(subject) < int64_t(nkeys)) return false;
        std::vector<Value> keys;
        for (const auto& k : p.keys) keys.push_back(eval_(k.get()));
        // subject.get(key, marker): a key is looked up without creating it (defaultdict). A key
        // equal to an earlier one is an error, unless a missing key ended the match before it.
        auto marker = std::make_shared<InstanceObj>();
        marker->cls = in_.objectCls;
        Value missing(marker), get = in_.getAttr(subject, "get");
        std::vector<Value> values;
        for (size_t i = 0; i < nkeys; ++i) {
            for (size_t j = 0; j < i; ++j)
                if (in_.equals(keys[j], keys[i])) in_.raiseValue("mapping pattern checks duplicate key (" + in_.repr(keys[i]) + ")");
            Value v = in_.call(get, {keys[i], missing});
            if (v.is(OK::Instance) && v.obj() == marker.get()) return false;
            values.push_back(v);
        }
        for (size_t i = 0; i < nkeys; ++i)
            if (!match(*p.patterns[i], values[i])) return false;
        if (!p.rest.empty()) binds_.emplace_back(p.rest, restOf(subject, keys));
        return true;
    }

    // **rest: a new dict of the subject's other entries.
    Value restOf(const Value& subject, const std::vector<Value>& matched) {
        auto d = std::make_shared<DictObj>();
        if (subject.is(OK::Dict)) {
            if (in_.tracer) in_.tracer->onSeqUse(subject); // a copy: every entry is read
            for (auto& e : subject.as<DictObj>()->map.entries())
                if (e.live) d->map.set(e.key, e.val);
        } else {
            for (const Value& k : in_.toVector(in_.call(in_.getAttr(subject, "keys"), std::vector<Value>{})))
                d->map.set(k, in_.getItem(subject, k));
        }
        for (const Value& k : matched) d->map.erase(k);
        return Value(d);
    }

    // CPython's _Py_TPFLAGS_MATCH_SELF: `case int(x)` matches x against the subject itself.
    bool matchesSelf(const ClassObj* c) const {
        for (const ClassP& t : {in_.boolCls, in_.intCls, in_.floatCls, in_.strCls, in_.listCls, in_.tupleCls, in_.dictCls, in_.setCls})
            if (c->isSubclassOf(t.get())) return true;
        return false;
    }

    bool isInstanceOf(const Value& subject, const Value& cls) {
        if (const Value* m = in_.metaMethod(cls, "__instancecheck__")) return in_.truthy(in_.call(*m, {cls, subject}));
        // the answer depends on the subject's class: a traced frame guards it, as an attribute read does
        if (in_.tracer && subject.is(OK::Instance))
            in_.tracer->onAttr(subject, "__class__", Value(subject.as<InstanceObj>()->cls));
        return in_.isInstance(subject, cls.as<ClassObj>());
    }

    // The attribute a sub-pattern matches; false when the subject has none (no match).
    bool attribute(const Value& subject, const ClassObj* cls, const std::string& name, std::vector<std::string>& seen, Value& out) {
        if (std::find(seen.begin(), seen.end(), name) != seen.end())
            in_.raiseType(cls->name + "() got multiple sub-patterns for attribute " + reprStr(name));
        seen.push_back(name);
        try {
            out = in_.getAttr(subject, name);
        } catch (const PyException& e) {
            if (in_.isInstance(e.exc, in_.attributeError.get())) return false;
            throw;
        }
        if (in_.tracer) in_.tracer->onAttr(subject, name, out);
        return true;
    }

    // The values the positional sub-patterns match, through __match_args__.
    bool positionals(const ClassPattern& p, const Value& subject, const ClassObj* cls, std::vector<std::string>& seen,
                     std::vector<Value>& out) {
        size_t given = p.patterns.size();
        Value matchArgs;
        bool self = false;
        std::vector<Value> names;
        if (in_.tryGetAttr(Value(const_cast<ClassObj*>(cls)->shared_from_this()), "__match_args__", matchArgs)) {
            bool exactTuple = matchArgs.is(OK::Tuple) && !matchArgs.as<TupleObj>()->isSize && matchArgs.as<TupleObj>()->structName.empty();
            if (!exactTuple) in_.raiseType(cls->name + ".__match_args__ must be a tuple (got " + in_.typeName(matchArgs) + ")");
            names = matchArgs.as<TupleObj>()->items;
        } else {
            self = matchesSelf(cls);
        }
        size_t allowed = self ? 1 : names.size();
        if (allowed < given)
            in_.raiseType(cls->name + "() accepts " + std::to_string(allowed) + " positional sub-pattern" + (allowed == 1 ? "" : "s") +
                          " (" + std::to_string(given) + " given)");
        if (self) {
            out.push_back(subject);
            return true;
        }
        for (size_t i = 0; i < given; ++i) {
            if (!names[i].isStr()) in_.raiseType("__match_args__ elements must be strings (got " + in_.typeName(names[i]) + ")");
            Value v;
            if (!attribute(subject, cls, strOf(names[i]), seen, v)) return false;
            out.push_back(v);
        }
        return true;
    }

    // Every attribute is read before any sub-pattern is tried, as CPython's MATCH_CLASS does.
    bool classPattern(const ClassPattern& p, const Value& subject) {
        Value cls = eval_(p.cls.get());
        if (!cls.is(OK::Class)) in_.raiseType("called match pattern must be a type");
        if (!isInstanceOf(subject, cls)) return false;
        const ClassObj* c = cls.as<ClassObj>();
        std::vector<std::string> seen;
        std::vector<Value> values;
        if (!p.patterns.empty() && !positionals(p, subject, c, seen, values)) return false;
        for (const auto& name : p.kwdAttrs) {
            Value v;
            if (!attribute(subject, c, name, seen, v)) return false;
            values.push_back(v);
        }
        for (size_t i = 0; i < values.size(); ++i) {
            const Pattern& sub = i < p.patterns.size() ? *p.patterns[i] : *p.kwdPatterns[i - p.patterns.size()];
            if (!match(sub, values[i])) return false;
        }
        return true;
    }

    // The first alternative that matches; its names are bound in the first alternative's order.
    bool alternatives(const OrPattern& p, const Value& subject) {
        size_t mark = binds_.size();
        for (size_t i = 0; i < p.patterns.size(); ++i) {
            if (match(*p.patterns[i], subject)) {
                if (i > 0) inFirstOrder(p, mark);
                return true;
            }
            binds_.resize(mark);
        }
        return false;
    }

    void inFirstOrder(const OrPattern& p, size_t from) {
        std::vector<std::string> order;
        patternNames(*p.patterns[0], order);
        std::stable_sort(binds_.begin() + std::ptrdiff_t(from), binds_.end(), [&](const auto& a, const auto& b) {
            return std::find(order.begin(), order.end(), a.first) < std::find(order.begin(), order.end(), b.first);
        });
    }
};

} // namespace

bool matchPattern(Interp& in, const Pattern& p, const Value& subject, const PatternEval& eval, PatternBindings& binds) {
    in.poll();
    return Matcher(in, eval, binds).match(p, subject);
}

} // namespace fl::script
