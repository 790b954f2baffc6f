/* site_frame_arch.h: for each frame of a real stack, as the unwinder walks
 * it, the slot it names holds that frame's return address, and a frame
 * with alloca is one that may change size (its chain is never kept).
 * Built natively by ctests/run.sh; for AArch64, build it with the cross
 * compiler (-static) and run it under qemu-aarch64. */
#define _GNU_SOURCE
#include <alloca.h>
#include <stdint.h>
#include <string.h>
#include <unwind.h>

#include "expect.h"
#include "site_frame_arch.h"

#define FRAMES 16
typedef struct walk {
    int n;
    uintptr_t ip[FRAMES], sp[FRAMES], fp[FRAMES], slot[FRAMES];
    int holds[FRAMES]; /* the slot held the return address, read while the frame was live */
} walk_t;

static _Unwind_Reason_Code step(struct _Unwind_Context *ctx, void *arg)
{
    walk_t *w = arg;
    if (w->n == FRAMES) return _URC_END_OF_STACK;
    int i = w->n++;
    w->ip[i] = (uintptr_t)_Unwind_GetIP(ctx);
    w->sp[i] = (uintptr_t)_Unwind_GetCFA(ctx);
    w->fp[i] = (uintptr_t)_Unwind_GetGR(ctx, SITES_FP_REG);
    w->slot[i] = i ? sites_ra_slot(w->sp[i - 1], w->fp[i - 1], w->sp[i], w->ip[i]) : 0;
    w->holds[i] = w->slot[i] && *(const uintptr_t *)w->slot[i] == w->ip[i];
    return _URC_NO_REASON;
}

static walk_t seen;
static volatile int sink;
/* the chain main -> with_alloca -> plain_outer -> plain_inner -> probe */
__attribute__((noinline)) static void probe(void)
{
    memset(&seen, 0, sizeof seen);
    _Unwind_Backtrace(step, &seen);
    sink++;
}
__attribute__((noinline)) static void plain_inner(void)
{
    probe();
    sink++;
}
__attribute__((noinline)) static void plain_outer(void)
{
    plain_inner();
    sink++;
}
__attribute__((noinline)) static void with_alloca(int n)
{
    volatile char *p = alloca((size_t)n);
    p[0] = 1;
    plain_outer();
    sink += p[0];
}

static int index_of(void (*fn)(void), int from)
{
    /* the frame whose return address lies in fn: the first after from */
    for (int i = from; i < seen.n; i++)
        if (seen.ip[i] > (uintptr_t)fn && seen.ip[i] - (uintptr_t)fn < 256) return i;
    return -1;
}

int main(int argc, char **argv)
{
    (void)argv;
    with_alloca(64 + argc);
    int inner = index_of(plain_inner, 0), outer = index_of(plain_outer, 0);
    int alloca_at = index_of((void (*)(void))with_alloca, 0);
    EXPECT(inner > 0 && outer == inner + 1 && alloca_at == outer + 1, "frames: inner %d, outer %d, alloca %d",
           inner, outer, alloca_at);
    if (failures) return 1;
#if defined(__x86_64__) || defined(__aarch64__)
    /* each return address where its slot says, from the probe's caller up */
    for (int i = inner; i <= alloca_at + 1 && i < seen.n; i++)
        EXPECT(seen.holds[i], "frame %d: slot %#lx", i, (unsigned long)seen.slot[i]);
    /* with_alloca's frame may change size; on AArch64, GCC's plain frames
     * keep theirs, frame pointer or not (on x86-64 any frame with rbp is
     * taken for one that may change: then every call walks, right but slower) */
    EXPECT(sites_frame_varies(seen.fp[alloca_at], seen.sp[alloca_at], seen.sp[alloca_at + 1]),
           "with_alloca's frame taken for a fixed one");
#if defined(__aarch64__) && defined(__GNUC__) && !defined(__clang__)
    EXPECT(!sites_frame_varies(seen.fp[outer], seen.sp[outer], seen.sp[outer + 1]),
           "plain_outer's frame taken for one that may change size");
#endif
#else
    EXPECT(seen.slot[inner] == 0, "a slot named where the layout is not known");
#endif
    if (!failures) printf("site_frame_arch: all passed\n");
    return failures != 0;
}
