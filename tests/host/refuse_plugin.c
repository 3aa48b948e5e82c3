/* refuse_plugin.c — a plugin that always refuses to open (libspl_refuse.so),
 * to test that the host reports a plugin's refusal message. */
#include "spl_plugin.h"

const SplPluginInfo* spl_plugin_open(const SplHostRequest* request, const char** error) {
    (void)request;
    if (error) *error = "refuse plugin: built for LibTorch 9.9.9, this is a test refusal";
    return 0;
}
