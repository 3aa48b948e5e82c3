// search_paths.h — where splrun looks for library roots and plugins.
//
// Only places named by the user (-L, SIMPLE_LIB, SIMPLE_SFFI_PATH) or fixed
// relative to the splrun executable itself, never the working directory, so
// that a build tree or an installed tree (moved anywhere) uses its own
// lib.torch with its own plugin:
//
//   build tree   <build>/host/splrun  ->  <build>/share/spl-torch/lib, <build>/runtime_plugin
//   installed    <prefix>/bin/splrun  ->  <prefix>/share/spl-torch/lib, <prefix>/<libdir>/spl-torch
//
// The installed layout's relative paths come from Meson (SPLRUN_LIB_FROM_BIN,
// SPLRUN_PLUGINS_FROM_BIN; SPLRUN_WORD_LIB_FROM_BIN, `.../word-lib`, replaces
// the first under --simple-runtime-ffi); the build tree mirrors the library part.
#pragma once

#include <string>
#include <vector>

// Set by host/meson.build from the install options; these are Meson's defaults.
#ifndef SPLRUN_LIB_FROM_BIN
#define SPLRUN_LIB_FROM_BIN "../share/spl-torch/lib"
#endif
#ifndef SPLRUN_WORD_LIB_FROM_BIN // the default under --simple-runtime-ffi
#define SPLRUN_WORD_LIB_FROM_BIN "../share/spl-torch/word-lib"
#endif
#ifndef SPLRUN_PLUGINS_FROM_BIN
#define SPLRUN_PLUGINS_FROM_BIN "../lib/spl-torch"
#endif

namespace spl {

struct SearchPaths {
    std::vector<std::string> lib_roots;   // -L, then SIMPLE_LIB, else the default next to splrun
    std::vector<std::string> plugin_dirs; // SIMPLE_SFFI_PATH, then the defaults next to splrun
};

// The directory holding the running executable.
std::string executable_dir();

// File-system questions the host asks of paths.
bool is_file(const std::string& path);
bool is_dir(const std::string& path);
// The canonical path (symlinks and `..` resolved), or "" when it does not exist.
std::string real_path(const std::string& path);

// `cli_lib_roots` are the -L options, in order. `word_lib`: the default library
// root is the word-call tree (SPLRUN_WORD_LIB_FROM_BIN), for --simple-runtime-ffi.
SearchPaths search_paths(const std::vector<std::string>& cli_lib_roots, bool word_lib = false);

} // namespace spl
