// attr_hooks.h — `get_attr` / `set_attr`: the names a class does not declare, answered by the
// class itself (Python's __getattr__ / __setattr__), so that a class wrapping a foreign object
// (a Python object, say) can take any attribute name.
//
// Only where the class has nothing of that name: `obj.NAME` with no field, property, method or
// static method NAME calls `obj.get_attr("NAME")`; `obj.NAME(args)` calls what that returns with
// the arguments, as any callable value is called; `obj.NAME = v` with no field and no
// `@NAME.setter` (and no read-only property NAME) calls `obj.set_attr("NAME", v)`. The hooks the
// host calls by itself never go there (is_hook_name). Nothing of it is cached: a site caches
// the class's own field or method only (site_cache.h), so a site that meets another class, or
// a class that gets the method later, looks the name up again.
#pragma once

#include <string>
#include <string_view>

#include "resolve/objects.h"

namespace spl {

// A hook the host calls by itself (`call`, `get_item`, `set_item`, `to_string`, `format`, `len`,
// `contains`, `iter`, `next`, `drop`, `__enter__`, `__exit__`) or get_attr / set_attr themselves:
// a class without it behaves as one without get_attr does, whether the host or the program asks.
bool is_hook_name(std::string_view name);

// The method that answers reading or calling `name` on an instance of `cls` that has no member of
// that name: the class's get_attr; null when it has none or `name` is a hook's or a static method's.
const Value* attr_getter(const ClassObj& cls, const std::string& name);

// The method that answers `obj.name = v` where `cls` has no field and no setter `name`: its
// set_attr; null when it has none or `name` is a hook's.
const Value* attr_setter(const ClassObj& cls, const std::string& name);

} // namespace spl
