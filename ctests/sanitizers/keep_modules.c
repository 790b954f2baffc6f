/*
 * Linked into the MPI test programs of the sanitizer run (scripts/sanitize.sh):
 * dlclose does nothing, so every module stays mapped until exit.  Why:
 * LeakSanitizer symbolizes at exit, and a block allocated by a module that
 * Open MPI, libfabric or PAPI unloaded has only "<unknown module>" frames,
 * which no suppression can match and no reader can place.
 */
int dlclose(void *handle);

int dlclose(void *handle)
{
    (void)handle;
    return 0;
}
