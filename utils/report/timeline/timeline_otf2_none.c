/*
 * papi-mpit-merge built without libotf2 (configure found no otf2-config
 * nor otf2/otf2.h): the timeline is the trace-event JSON only.
 */
#include "timeline.h"

int timeline_write_otf2(const char *dir, const timeline_t *tl)
{
    (void)dir, (void)tl;
    return 1;
}
