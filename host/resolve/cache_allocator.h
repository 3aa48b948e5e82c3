// cache_allocator.h — where the resolver gets the caches it attaches to call, member and operator
// sites and to functions (ast.h's SiteCache and BodyCache pointers): the interpreter's side table
// (eval/site_cache.h), which owns them for as long as the program's code may run.
#pragma once

#include "resolve/checks/int_division.h"
#include "syntax/ast.h"

namespace spl {

class CacheAllocator {
public:
    virtual ~CacheAllocator() = default;
    virtual SiteCache* new_site() = 0; // a new, empty cache, at a stable address
    virtual BodyCache* new_body() = 0;
    // A division of the program whose result may meet a float (checks/int_division.h), resolved
    // (its site and its consumer's have their caches): the interpreter warns when it truncates
    // there. An allocator that runs nothing (a fuzzer's) ignores it.
    virtual void watch_division(const DivisionSite& /*site*/) {}
};

} // namespace spl
