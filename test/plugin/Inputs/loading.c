/* Compiles only where the plugin predefines PILGRIM_PLUGIN (loading.test). */
#ifndef PILGRIM_PLUGIN
#error "pilgrim.so was not loaded"
#endif
int loaded = PILGRIM_PLUGIN;
