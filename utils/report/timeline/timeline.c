/*
 * papi-mpit-merge: the timeline of a run's last calls (timeline.h), from
 * its ranks' state files, in both forms.
 */
#include <stdio.h>

#include "timeline.h"

#define PFX "papi-mpit-report: --merge: timeline: "

void timeline_write(const char *dir, int nprocs)
{
    timeline_t tl;
    if (timeline_read(dir, nprocs, &tl)) {
        timeline_free(&tl);
        return; /* no rank kept its last calls (no state file, or --no-sites) */
    }
    char path[4200];
    long long calls = 0;
    for (int i = 0; i < tl.nthreads; i++) calls += tl.threads[i].ncalls;
    snprintf(path, sizeof path, "%s/timeline.json", dir);
    if (timeline_write_json(path, &tl))
        fprintf(stderr, PFX "cannot write %s\n", path);
    else
        fprintf(stderr, "papi-mpit-report: wrote timeline.json in %s (the last %lld calls of %d threads)\n",
                dir, calls, tl.nthreads);
    int otf2 = timeline_write_otf2(dir, &tl);
    if (otf2 == 0)
        fprintf(stderr, "papi-mpit-report: wrote the OTF2 archive timeline-otf2/traces.otf2 in %s\n", dir);
    else if (otf2 == 1)
        fprintf(stderr,
                PFX "the OTF2 trace is not built in (no libotf2 at configure time): timeline.json only\n");
    timeline_free(&tl);
}
