// int_division_watch.cpp — warning when the program's i64 division truncates into a float.
#include "eval/int_division_watch.h"

#include <cstdio>
#include <string>

namespace spl {

void IntDivisionWatch::watch(const DivisionSite& site) {
    Watched w;
    w.div = site.div;
    if (site.flow == DivisionSite::Flow::Operand) {
        w.consumer = &site.consumer->cache->overloads;
        w.lhs = site.lhs;
    }
    sites_.emplace(&site.div->cache->overloads, w);
}

int64_t IntDivisionWatch::divide(const OverloadSite* site, int64_t x, int64_t y) {
    const int64_t q = x / y;
    if (q * y != x)
        truncated(site, x, y, q); // warns where the result meets a float
    else if (pending_.division == site)
        pending_ = Pending{}; // an exact result: what this site left pending is stale
    return q;
}

void IntDivisionWatch::truncated(const OverloadSite* site, int64_t x, int64_t y, int64_t q) {
    if (sites_.empty()) return;
    auto it = sites_.find(site);
    if (it == sites_.end() || it->second.warned) return;
    if (!it->second.consumer) return warn(it->second, x, y, q);
    pending_ = Pending{site, it->second.consumer, &it->second, x, y, q};
}

void IntDivisionWatch::consume(const Value& a, const Value& b) {
    const Pending p = pending_;
    pending_ = Pending{};
    const Value& mine = p.watched->lhs ? a : b;
    const Value& other = p.watched->lhs ? b : a;
    if (mine.is_int() && mine.as_int() == p.q && other.is_float()) warn(*p.watched, p.x, p.y, p.q);
}

void IntDivisionWatch::warn(Watched& w, int64_t x, int64_t y, int64_t q) {
    if (w.warned) return;
    w.warned = true;
    const std::string values = std::to_string(q) + " here (" + std::to_string(x) + " / " + std::to_string(y) + ")";
    const std::string line = w.div->loc.str() + ": warning: " + int_division_warning(*w.div, values) + "\n";
    std::fflush(stdout); // after what the program printed before it
    std::fwrite(line.data(), 1, line.size(), stderr);
    std::fflush(stderr);
}

} // namespace spl
