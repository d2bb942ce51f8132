#include "core/support/events.h"

namespace fl::events {

const std::string* Event::arg(const std::string& key) const {
    for (auto& a : args)
        if (a.key == key && !a.isNumber) return &a.text;
    return nullptr;
}

double Event::number(const std::string& key, double fallback) const {
    for (auto& a : args)
        if (a.key == key && a.isNumber) return a.number;
    return fallback;
}

void Log::push(Event&& e) {
    std::lock_guard<std::mutex> lk(mu_);
    if (events_.size() >= limit_) {
        ++dropped_;
        return;
    }
    events_.push_back(std::move(e));
}

void Log::span(std::string track, std::string name, std::string category, Ns begin, Ns dur, std::vector<Arg> args) {
    if (level_ == Level::Off) return;
    Event e;
    e.kind = Kind::Span;
    e.track = std::move(track);
    e.name = std::move(name);
    e.category = std::move(category);
    e.begin = begin;
    e.dur = dur < 0 ? 0 : dur;
    e.args = std::move(args);
    push(std::move(e));
}

void Log::instant(std::string track, std::string name, std::string category, Ns at, std::vector<Arg> args) {
    if (level_ == Level::Off) return;
    Event e;
    e.kind = Kind::Instant;
    e.track = std::move(track);
    e.name = std::move(name);
    e.category = std::move(category);
    e.begin = at;
    e.args = std::move(args);
    push(std::move(e));
}

void Log::counter(std::string track, std::string name, Ns at, double value) {
    if (level_ == Level::Off) return;
    Event e;
    e.kind = Kind::Counter;
    e.track = std::move(track);
    e.name = std::move(name);
    e.category = "counter";
    e.begin = at;
    e.value = value;
    push(std::move(e));
}

std::vector<Event> Log::snapshot() const {
    std::lock_guard<std::mutex> lk(mu_);
    return events_;
}

size_t Log::size() const {
    std::lock_guard<std::mutex> lk(mu_);
    return events_.size();
}

size_t Log::dropped() const {
    std::lock_guard<std::mutex> lk(mu_);
    return dropped_;
}

void Log::clear() {
    std::lock_guard<std::mutex> lk(mu_);
    events_.clear();
    dropped_ = 0;
}

void Log::setLimit(size_t n) {
    std::lock_guard<std::mutex> lk(mu_);
    limit_ = n;
}

} // namespace fl::events
