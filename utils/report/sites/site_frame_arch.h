/*
 * papi-mpit-report: where a frame keeps its return address, per
 * architecture, for site_frames.c's chains.  A chain reads each frame's
 * return address from the stack where the last walk found it, so it needs
 * that address's slot and whether a frame may change size between calls
 * (alloca, variable-length arrays: only frames with a frame pointer).
 * Elsewhere no chain is kept and every call walks.
 *
 * In the walk's terms: C calls F, which is called by G; sp_X is
 * _Unwind_GetCFA of X's context (X's stack pointer at its call), fp_X its
 * frame pointer register.
 */
#ifndef PAPI_MPIT_SITES_FRAME_ARCH_H
#define PAPI_MPIT_SITES_FRAME_ARCH_H

#include <stdint.h>

#if defined(__x86_64__)
#define SITES_FP_REG 6 /* rbp, in DWARF's numbering */

/* the slot of F's return address: pushed by F's call, just below sp_F */
static inline uintptr_t sites_ra_slot(uintptr_t c_sp, uintptr_t c_fp, uintptr_t f_sp, uintptr_t ip)
{
    (void)c_sp, (void)c_fp, (void)ip;
    return f_sp - 8;
}

/* F pushed rbp right under its return address and set rbp there */
static inline int sites_frame_varies(uintptr_t f_fp, uintptr_t f_sp, uintptr_t g_sp)
{
    (void)f_sp;
    return f_fp == g_sp - 16;
}

#elif defined(__aarch64__)
#define SITES_FP_REG 29 /* x29 */

/* F's return address came in x30 and C saved it in its frame record
 * {x29, x30}: where C's x29 points when C keeps a frame pointer, else at
 * the top of C's frame (Clang's layout) or at its bottom (GCC's).  The slot
 * that holds ip is taken; 0 when none does (no chain then). */
static inline uintptr_t sites_ra_slot(uintptr_t c_sp, uintptr_t c_fp, uintptr_t f_sp, uintptr_t ip)
{
    uintptr_t at[3] = {c_fp + 8, f_sp - 8, c_sp + 8};
    if (!c_sp || f_sp <= c_sp) return 0;
    for (int i = 0; i < 3; i++)
        if (at[i] >= c_sp + 8 && at[i] <= f_sp - 8 && *(const uintptr_t *)at[i] == ip) return at[i];
    return 0;
}

/* x29 points into F's own frame but above its stack pointer: what lies
 * between is alloca's (GCC puts the frame record at the bottom of the
 * fixed frame, so x29 == sp_F in a frame without it; a function without a
 * frame pointer leaves its caller's x29, which lies above F's frame) */
static inline int sites_frame_varies(uintptr_t f_fp, uintptr_t f_sp, uintptr_t g_sp)
{
    return f_fp > f_sp && f_fp < g_sp;
}

#else
#define SITES_FP_REG 0

static inline uintptr_t sites_ra_slot(uintptr_t c_sp, uintptr_t c_fp, uintptr_t f_sp, uintptr_t ip)
{
    (void)c_sp, (void)c_fp, (void)f_sp, (void)ip;
    return 0;
}

static inline int sites_frame_varies(uintptr_t f_fp, uintptr_t f_sp, uintptr_t g_sp)
{
    (void)f_fp, (void)f_sp, (void)g_sp;
    return 1;
}
#endif

#endif
