// iterators.h — Python's lazy iterators in the host: iter(x), enumerate(x), zip(a, b), next(it).
#pragma once

#include <string>
#include <vector>

#include "eval/interpreter.h"

namespace spl {

// What iter(), enumerate() and zip() return. It draws its items one at a time, when asked: an
// object iterated through its `next()` hook (a lib.torch DataLoader draws its shuffled order when
// iterated) is never drawn ahead, and `break` leaves the rest undrawn, as in Python.
struct IteratorObj : Obj {
    enum class Kind : uint8_t {
        Sequence,  // source: an array, tuple or range, read by index (an array sees appends, as a list's iterator does)
        Snapshot,  // items: a text's characters or a dict's keys, taken when iteration starts
        Hook,      // source: an object whose `next()` returns the next item, nil at the end
        Enumerate, // source: an iterator; count: the next index
        Zip,       // items: the iterators; the shortest ends it
    };
    IteratorObj(Kind k, const char* n) : Obj(ObjType::Iterator), kind(k), name(n) {}
    const Kind kind;
    const char* const name; // Python's type name: "iterator", "enumerate", "zip"
    Value source;
    std::vector<Value> items;
    size_t pos = 0;
    int64_t count = 0;
    bool done = false; // once ended, it stays ended (a hook is not asked again)
};

// iter(x): an iterator over anything `for` iterates; an iterator is its own.
Value make_iterator(Interpreter& in, const Value& iterable, SourceLoc loc);
// The next item into `out`; false at the end.
bool iterator_next(Interpreter& in, IteratorObj& it, SourceLoc loc, Value& out);

} // namespace spl

namespace spl {

// The builtins (registered in builtins.cpp's table).
Value b_iter(Interpreter& in, ArgList& args, SourceLoc loc);      // iter(x)
Value b_next(Interpreter& in, ArgList& args, SourceLoc loc);      // next(it), next(it, default)
Value b_enumerate(Interpreter& in, ArgList& args, SourceLoc loc); // enumerate(x, start = 0)
Value b_zip(Interpreter& in, ArgList& args, SourceLoc loc);       // zip(a, b, ...)

} // namespace spl
