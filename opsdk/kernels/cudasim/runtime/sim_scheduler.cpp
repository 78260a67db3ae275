// The block scheduler: runs ready threads until every one has exited or waits, releases
// barriers every thread reached, and diagnoses the rest (a barrier or collective some thread
// never reaches) instead of hanging.
#include "sim_internal.h"

#include <stdio.h>
#include <string.h>

// ---------------------------------------------------------------------------------------------
// barriers and the scheduler

EXPORT int opsdk_sim_barrier(int mode, int pred, const char *file, int line) {
    tick();
    Lane &l = g_lanes[g_cur];
    l.state = AT_BARRIER, l.bar_mode = mode, l.pred = pred != 0, l.file = file, l.line = line;
    yield_to_scheduler();
    return (int)l.result;
}

void lane_exit() {
    int t = g_cur, w = t / OPSDK_SIM_WARP;
    g_lanes[t].state = DONE;
    Warp &warp = g_warps[w];
    warp.done |= 1u << (t % OPSDK_SIM_WARP);
    for (int i = 0; i < OPSDK_SIM_WARP; i++)
        if (warp.groups[i].used && complete(w, i)) resolve(w, i, -1);
    yield_to_scheduler();
    fail(OPSDK_ERR_INTERNAL, nullptr, 0, "a finished thread was resumed");
}

static void where_is(char *buf, size_t cap, int t) {
    const Lane &l = g_lanes[t];
    if (l.state == DONE) snprintf(buf, cap, "has exited");
    else if (l.state == AT_BARRIER) snprintf(buf, cap, "waits at __syncthreads() at %s:%d", l.file, l.line);
    else if (l.state == AT_WARP)
        snprintf(buf, cap, "waits at %s(mask 0x%08x) at %s:%d", kWarpNames[g_warps[t / 32].groups[l.group].kind],
                 l.mask, l.file, l.line);
    else snprintf(buf, cap, "is running");
}

__attribute__((noreturn)) static void warp_deadlock(int w, int gi) {
    Warp &warp = g_warps[w];
    Group &g = warp.groups[gi];
    unsigned missing = g.mask & warp.exist & ~warp.done & ~g.arrived;
    char arrived[160], absent[160], where[256];
    lanes_text(arrived, sizeof arrived, g.arrived);
    lanes_text(absent, sizeof absent, missing);
    int first = -1;
    for (int i = 0; i < OPSDK_SIM_WARP; i++)
        if (missing >> i & 1) {
            first = w * OPSDK_SIM_WARP + i;
            break;
        }
    where[0] = 0;
    if (first >= 0) where_is(where, sizeof where, first);
    int lane0 = w * OPSDK_SIM_WARP + __builtin_ctz(g.arrived);
    g_cur = lane0;
    fail(OPSDK_ERR_WARP_DEADLOCK, g.file, g.line,
         "%s(mask 0x%08x) in warp %d is reached by lanes %s but not by lanes %s of its mask "
         "(lane %d %s): a shuffle or vote must be reached by every thread of its mask; a GPU hangs "
         "or returns garbage here",
         kWarpNames[g.kind], g.mask, w, arrived, absent, first % OPSDK_SIM_WARP, where);
}

static void release_barrier() {
    // every thread that has not exited waits at a barrier: all must have reached the same one
    int first_waiting = -1, exited_first = -1, exited_last = -1, exited = 0;
    for (int t = 0; t < g_threads; t++) {
        const Lane &l = g_lanes[t];
        if (l.state == DONE) {
            if (exited_first < 0) exited_first = t;
            exited_last = t;
            exited++;
        } else if (first_waiting < 0) {
            first_waiting = t;
        }
    }
    const Lane &a = g_lanes[first_waiting];
    if (exited) {
        char who[160];
        thread_text(who, sizeof who, exited_first, exited_last);
        g_cur = first_waiting;
        fail(OPSDK_ERR_BARRIER_EXITED, a.file, a.line,
             "__syncthreads() at %s:%d is reached by %d of the block's %d threads; %d exited without "
             "reaching it (%s%s): a barrier in code that not every thread of the block runs hangs or "
             "corrupts a GPU",
             a.file, a.line, g_threads - exited, g_threads, exited, who,
             exited_last - exited_first + 1 == exited ? "" : ", and others");
    }
    int count = 0;
    for (int t = 0; t < g_threads; t++) {
        const Lane &l = g_lanes[t];
        if (l.line != a.line || strcmp(l.file, a.file) || l.bar_mode != a.bar_mode) {
            int last = t;
            while (last + 1 < g_threads && g_lanes[last + 1].line == l.line && !strcmp(g_lanes[last + 1].file, l.file))
                last++;
            char one[160], two[160];
            thread_text(one, sizeof one, first_waiting, t - 1);
            thread_text(two, sizeof two, t, last);
            g_cur = t;
            fail(OPSDK_ERR_BARRIER_SITES, l.file, l.line,
                 "the threads of the block wait at different barriers: %s at %s:%d, %s at %s:%d "
                 "(a __syncthreads() in divergent code)",
                 one, a.file, a.line, two, l.file, l.line);
        }
        count += l.pred;
    }
    uint64_t result = a.bar_mode == 1 ? count : a.bar_mode == 2 ? (count == g_threads) : a.bar_mode == 3 ? (count > 0) : 0;
    g_epoch++;
    for (int t = 0; t < g_threads; t++) g_lanes[t].result = result;
    for (int k = 0; k < g_threads; k++) make_ready(g_order[k]);
}

void run_block() {
    g_qhead = g_qtail = 0;
    for (int t = 0; t < g_threads; t++) fiber_init(g_lanes[t]);
    for (int k = 0; k < g_threads; k++) make_ready(g_order[k]);
    for (;;) {
        while (g_qhead != g_qtail) {
            int t = g_queue[g_qhead];
            g_qhead = (g_qhead + 1) % (OPSDK_SIM_MAX_THREADS + 1);
            if (g_lanes[t].state == READY) resume(t);
        }
        // nobody can run: everyone has exited, or waits at a barrier or warp collective
        bool progress = false, at_warp = false, at_barrier = false;
        int warps = (g_threads + OPSDK_SIM_WARP - 1) / OPSDK_SIM_WARP;
        for (int w = 0; w < warps; w++)
            for (int i = 0; i < OPSDK_SIM_WARP; i++) {
                Group &g = g_warps[w].groups[i];
                if (g.used && g.kind == ACTIVEMASK) {
                    resolve(w, i, -1);
                    progress = true;
                }
            }
        if (progress) continue;
        for (int t = 0; t < g_threads; t++) {
            at_warp = at_warp || g_lanes[t].state == AT_WARP;
            at_barrier = at_barrier || g_lanes[t].state == AT_BARRIER;
        }
        if (at_warp) {
            for (int w = 0; w < warps; w++)
                for (int i = 0; i < OPSDK_SIM_WARP; i++)
                    if (g_warps[w].groups[i].used) warp_deadlock(w, i);
        }
        if (!at_barrier) return;  // every thread has exited
        release_barrier();
    }
}

